package fri

// SetPhaseHook makes Open call f at the end of each of its phases (setup,
// evaluate, prepare, layers, final+grind, openings) and returns the
// function that removes it. Benchmarks time the phases with it.
func SetPhaseHook(f func(name string)) (restore func()) {
	openPhase = f
	return func() { openPhase = nil }
}
