//go:build !unix

package prover

import "time"

func processCPU() time.Duration { return 0 }
