// Package friphase carries the hook that package prover/fri's Open calls at
// the end of each of its phases (setup, evaluate, prepare, layers,
// final+grind, openings), so that benchmarks outside package fri can time
// them. Without a hook, End does nothing.
package friphase

var hook func(name string)

// Set makes End call f and returns the function that puts the previous hook
// back. It is not safe to call while an Open runs.
func Set(f func(name string)) (restore func()) {
	old := hook
	hook = f
	return func() { hook = old }
}

// End tells the hook, if one is set, that the phase name has ended.
func End(name string) {
	if hook != nil {
		hook(name)
	}
}
