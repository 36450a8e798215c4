//go:build !linux

package main

import (
	"time"

	"github.com/gfpoly/gfpoly/field/gf64"
)

func alloc(n int) []gf64.Element { return make([]gf64.Element, n) }

// cpuTime is not measured on this system.
func cpuTime() time.Duration { return 0 }
