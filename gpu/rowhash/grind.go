package rowhash

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/gpu"
)

// GrindMessageSize is the length of the message Grind takes: 0x04 ‖ a
// SHA-256 state ‖ u8(bits), package prover/transcript's grinding prefix.
const GrindMessageSize = 1 + sha256.Size + 1

// Grind runs package prover/transcript's proof-of-work search with
// SHA-256 on the device: the smallest nonce below limit such that
// SHA-256(msg ‖ le64(nonce)) starts with bits zero bits (the first byte's
// most significant bit first), found reporting whether there is one. msg
// is a GrindSearch's Message (GrindMessageSize bytes) and bits 1 … 32.
// The nonces are tried in chunks of increasing size, each after the last
// found none, so the smallest one is found as the host's search finds it.
// A message of another length or bits out of range is an error wrapping
// gpu.ErrLength.
func Grind(d *gpu.Device, msg []byte, bits int, limit uint64) (nonce uint64, found bool, err error) {
	if len(msg) != GrindMessageSize || bits < 1 || bits > 32 {
		return 0, false, fmt.Errorf("rowhash: Grind: a message of %d bytes (want %d) and %d bits (want 1 … 32): %w", len(msg), GrindMessageSize, bits, gpu.ErrLength)
	}
	if d == nil {
		return 0, false, fmt.Errorf("rowhash: Grind: nil device: %w", gpu.ErrNoDevice)
	}
	m, err := d.Module(cuda.MerkleProgram("gf64"))
	if err != nil {
		return 0, false, err
	}
	fn, err := m.Function("rh_grind")
	if err != nil {
		return 0, false, err
	}
	var blk [64]byte
	copy(blk[:], msg)
	blk[GrindMessageSize+8] = 0x80
	binary.BigEndian.PutUint64(blk[56:], uint64(GrindMessageSize+8)*8)
	var words [16]uint32
	for k := range words {
		words[k] = binary.BigEndian.Uint32(blk[4*k:])
	}
	par := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), 64)
	best, err := gpu.Alloc[uint64](d, 1)
	if err != nil {
		return 0, false, fmt.Errorf("rowhash: Grind: %w", err)
	}
	defer best.Free()
	chunk := uint64(1) << min(max(bits+2, 20), 30)
	sms := max(1, d.Info().Multiprocessors)
	got := []uint64{math.MaxUint64}
	for start := uint64(0); start < limit; {
		count := min(chunk, limit-start)
		g := int(min((count+block-1)/block, uint64(16*sms)))
		err := best.Upload(got)
		if err == nil {
			err = fn.Launch(gpu.LaunchConfig{Grid: gpu.Dim3{X: g}, Block: gpu.Dim3{X: block}}, par, uint32(bits), start, count, best)
		}
		if err == nil {
			err = best.Download(got)
		}
		if err != nil {
			return 0, false, fmt.Errorf("rowhash: Grind: %w", err)
		}
		if got[0] != math.MaxUint64 {
			return got[0], true, nil
		}
		start += count
		chunk = min(2*chunk, 1<<34)
	}
	return 0, false, nil
}
