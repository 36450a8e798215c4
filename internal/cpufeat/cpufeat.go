// Package cpufeat is a registry of the alternative implementations that
// packages of this module choose between at run time (generic Go, assembly
// for one instruction set or another), so that tests can run every path this
// machine supports, switch each one off, and say which ones ran.
//
// A package registers its implementations once, from an init function, with
// the function that makes one of them active. Selecting an implementation is
// for tests and benchmarks only: it changes process-wide state and must not
// race with calls into the package. In normal use nothing calls Select and
// each package keeps the fastest implementation its CPU supports.
package cpufeat

import (
	"fmt"
	"sync"
)

// Impl describes one implementation of a package's kernels.
type Impl struct {
	Name      string // short name, e.g. "generic", "pclmulqdq", "avx512"
	Available bool   // the CPU and the build support it
}

type entry struct {
	impls  []Impl
	sel    func(name string)
	active func() string
}

var (
	mu       sync.Mutex
	registry = map[string]*entry{}
)

// Register records pkg's implementations, in order from the slowest (the
// generic reference, always available) to the fastest. sel makes the named
// available implementation active; active reports the active one. Register
// panics if pkg is registered twice or no implementation is available.
func Register(pkg string, impls []Impl, sel func(name string), active func() string) {
	mu.Lock()
	defer mu.Unlock()
	if _, ok := registry[pkg]; ok {
		panic("cpufeat: " + pkg + " registered twice")
	}
	if len(impls) == 0 || !impls[0].Available {
		panic("cpufeat: " + pkg + ": the first implementation must be available")
	}
	registry[pkg] = &entry{
		impls:  append([]Impl(nil), impls...),
		sel:    sel,
		active: active,
	}
}

func lookup(pkg string) *entry {
	e, ok := registry[pkg]
	if !ok {
		panic("cpufeat: package " + pkg + " is not registered")
	}
	return e
}

// List returns pkg's implementations, slowest first, with their availability.
func List(pkg string) []Impl {
	mu.Lock()
	defer mu.Unlock()
	return append([]Impl(nil), lookup(pkg).impls...)
}

// Available returns the names of pkg's available implementations, slowest
// first.
func Available(pkg string) []string {
	var names []string
	for _, im := range List(pkg) {
		if im.Available {
			names = append(names, im.Name)
		}
	}
	return names
}

// Active returns the name of pkg's active implementation.
func Active(pkg string) string {
	mu.Lock()
	defer mu.Unlock()
	return lookup(pkg).active()
}

// Select makes the named implementation of pkg active and returns a function
// that restores the one that was active before. It panics if the name is
// unknown or the implementation is not available here.
func Select(pkg, name string) (restore func()) {
	mu.Lock()
	defer mu.Unlock()
	e := lookup(pkg)
	for _, im := range e.impls {
		if im.Name != name {
			continue
		}
		if !im.Available {
			panic(fmt.Sprintf("cpufeat: %s: implementation %q is not available on this machine", pkg, name))
		}
		prev := e.active()
		e.sel(name)
		return func() {
			mu.Lock()
			defer mu.Unlock()
			e.sel(prev)
		}
	}
	panic(fmt.Sprintf("cpufeat: %s: no implementation %q", pkg, name))
}

// Each calls f once for every available implementation of pkg, slowest
// first, with that implementation active, and restores the previous one
// afterwards. It is meant for tests: f usually runs a subtest.
func Each(pkg string, f func(name string)) {
	for _, name := range Available(pkg) {
		func() {
			defer Select(pkg, name)()
			f(name)
		}()
	}
}

// Choice is a package's implementations, named and ordered slowest first,
// and the index of the active one: the fastest available until a test
// selects another. A package keeps one in a variable and reads Index on its
// hot paths; NewChoice registers it.
type Choice struct {
	names []string
	avail []bool
	index int
}

// NewChoice registers pkg's implementations (as Register, names[i] being
// available where available[i] is set) and returns the choice among them,
// the fastest available active.
func NewChoice(pkg string, names []string, available []bool) *Choice {
	if len(names) != len(available) {
		panic("cpufeat: " + pkg + ": names and availability differ in length")
	}
	c := &Choice{names: names, avail: available}
	impls := make([]Impl, len(names))
	for i := range names {
		impls[i] = Impl{Name: names[i], Available: available[i]}
		if available[i] {
			c.index = i
		}
	}
	Register(pkg, impls, func(name string) {
		for i, n := range c.names {
			if n == name && c.avail[i] {
				c.index = i
				return
			}
		}
		panic(pkg + ": no available implementation " + name)
	}, func() string { return c.names[c.index] })
	return c
}

// Index returns the index of the active implementation.
func (c *Choice) Index() int { return c.index }
