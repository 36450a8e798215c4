//go:build unix

package domain

import (
	"syscall"
	"time"
)

// cpuTime returns the user plus system CPU time of the process: benchmarks
// report it per operation next to the wall time, since on a shared machine
// the wall time also counts time spent waiting for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
