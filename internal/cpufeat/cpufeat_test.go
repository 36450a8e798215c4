package cpufeat

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gfpoly/gfpoly/internal/testutil"
)

func TestRegistry(t *testing.T) {
	active := "fast"
	Register("cpufeat-test", []Impl{{"generic", true}, {"fast", true}, {"missing", false}},
		func(name string) { active = name }, func() string { return active })

	assert.Equal(t, []string{"generic", "fast"}, Available("cpufeat-test"))
	assert.Equal(t, []Impl{{"generic", true}, {"fast", true}, {"missing", false}}, List("cpufeat-test"))

	restore := Select("cpufeat-test", "generic")
	require.Equal(t, "generic", Active("cpufeat-test"), "Select did not switch")
	restore()
	require.Equal(t, "fast", Active("cpufeat-test"), "restore did not switch back")

	var seen []string
	Each("cpufeat-test", func(name string) {
		assert.Equal(t, name, Active("cpufeat-test"), "Each: %s is not active inside its call", name)
		seen = append(seen, name)
	})
	assert.Equal(t, []string{"generic", "fast"}, seen, "Each visited")
	assert.Equal(t, "fast", active, "Each left another implementation active")

	for _, tc := range []struct {
		name, want string
		f          func()
	}{
		{"select unavailable", "not available", func() { Select("cpufeat-test", "missing") }},
		{"select unknown", "no implementation", func() { Select("cpufeat-test", "nope") }},
		{"list unregistered", "not registered", func() { List("no-such-package") }},
		{"register twice", "registered twice", func() {
			Register("cpufeat-test", []Impl{{"generic", true}}, func(string) {}, func() string { return "generic" })
		}},
		{"first unavailable", "the first implementation must be available", func() {
			Register("cpufeat-test-2", []Impl{{"generic", false}}, func(string) {}, func() string { return "generic" })
		}},
	} {
		msg := testutil.PanicMessage(t, tc.f, tc.name)
		assert.Regexp(t, "^cpufeat: ", msg, tc.name)
		assert.Contains(t, msg, tc.want, tc.name)
	}
}

func TestChoice(t *testing.T) {
	c := NewChoice("test-choice", []string{"generic", "fast", "faster"}, []bool{true, true, false})
	assert.Equal(t, 1, c.Index(), "the fastest available")
	assert.Equal(t, "fast", Active("test-choice"))
	assert.Equal(t, []string{"generic", "fast"}, Available("test-choice"))
	restore := Select("test-choice", "generic")
	assert.Equal(t, 0, c.Index())
	restore()
	assert.Equal(t, 1, c.Index(), "restored")
	assert.Panics(t, func() { Select("test-choice", "faster") }, "an unavailable implementation")
	assert.Panics(t, func() { NewChoice("test-choice-2", []string{"a"}, nil) }, "lengths differ")
}
