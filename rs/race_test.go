//go:build race

package rs

// raceEnabled: the race detector makes sync.Pool drop items at random, so
// allocation counts are not asserted under it.
const raceEnabled = true
