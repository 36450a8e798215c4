package cpufeat

import (
	"slices"
	"strings"
	"testing"
)

func TestRegistry(t *testing.T) {
	active := "fast"
	Register("cpufeat-test", []Impl{{"generic", true}, {"fast", true}, {"missing", false}},
		func(name string) { active = name }, func() string { return active })

	if got := Available("cpufeat-test"); !slices.Equal(got, []string{"generic", "fast"}) {
		t.Fatalf("Available = %v", got)
	}
	if got := List("cpufeat-test"); len(got) != 3 || got[2].Available {
		t.Fatalf("List = %v", got)
	}
	restore := Select("cpufeat-test", "generic")
	if Active("cpufeat-test") != "generic" {
		t.Fatal("Select did not switch")
	}
	restore()
	if Active("cpufeat-test") != "fast" {
		t.Fatal("restore did not switch back")
	}
	var seen []string
	Each("cpufeat-test", func(name string) {
		if Active("cpufeat-test") != name {
			t.Fatalf("Each: %s is not active inside its call", name)
		}
		seen = append(seen, name)
	})
	if !slices.Equal(seen, []string{"generic", "fast"}) || active != "fast" {
		t.Fatalf("Each visited %v and left %s active", seen, active)
	}

	mustPanic(t, "not available", func() { Select("cpufeat-test", "missing") })
	mustPanic(t, "no implementation", func() { Select("cpufeat-test", "nope") })
	mustPanic(t, "not registered", func() { List("no-such-package") })
	mustPanic(t, "registered twice", func() {
		Register("cpufeat-test", []Impl{{"generic", true}}, func(string) {}, func() string { return "generic" })
	})
}

func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, want) {
			t.Fatalf("panic %v, want one containing %q", r, want)
		}
	}()
	f()
}
