//go:build race

package prime

const raceEnabled = true
