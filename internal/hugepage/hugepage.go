// Package hugepage allocates large slices backed by transparent huge pages
// where the kernel offers them, so that first writes to a buffer of
// hundreds of megabytes take hundreds of page faults instead of hundreds of
// thousands (on a virtual machine a fault costs microseconds).
package hugepage

// Make returns make([]E, n), advised for huge pages when it spans at least
// two of them (Advise).
func Make[E any](n int) []E {
	s := make([]E, n)
	Advise(s)
	return s
}
