//go:build !linux

package prover

func adviseHugePages[E any](s []E) {}
