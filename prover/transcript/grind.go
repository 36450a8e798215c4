package transcript

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// grindChunk is the number of consecutive nonces a grinding worker takes at
// a time.
const grindChunk = 1 << 12

// grindPrefix returns 0x04 ‖ state ‖ u8(bits) followed by 8 bytes of room
// for the nonce.
func (t *Transcript) grindPrefix(bits int) []byte {
	p := make([]byte, 0, 1+len(t.state)+1+8)
	p = append(p, domGrind)
	p = append(p, t.state...)
	p = append(p, byte(bits))
	return append(p, make([]byte, 8)...)
}

// leadingZeros reports whether the digest d starts with bits zero bits
// (bit 7 of byte 0 first); bits ≤ 32 and len(d) ≥ 16.
func leadingZeros(d []byte, bits int) bool {
	if bits == 0 {
		return true
	}
	return binary.BigEndian.Uint32(d)>>(32-bits) == 0
}

// Grind is GrindContext without a context.
func (t *Transcript) Grind(bits int) (uint64, error) {
	return t.GrindContext(context.Background(), bits)
}

// GrindContext finds the proof-of-work nonce for bits (0..MaxBits): the
// smallest nonce such that H(0x04 ‖ state ‖ u8(bits) ‖ le64(nonce)) starts
// with bits zero bits, its first byte's most significant bit first. Then it
// absorbs the nonce, state = H(0x05 ‖ state ‖ u8(bits) ‖ le64(nonce)), as
// CheckGrind does, so prover and verifier continue alike. The search is
// spread over GOMAXPROCS goroutines in chunks of consecutive nonces and
// returns the smallest nonce whatever their number and timing. It costs
// about 2^bits hashes (2^32 at 32 bits: minutes on a few cores).
//
// Errors: one wrapping ErrParam for bits outside 0..MaxBits; ctx's error
// when it is done first; one wrapping ErrGrindLimit when no nonce below
// the limit (WithGrindLimit) fits; the transcript's hash failure. On an
// error the state is unchanged.
func (t *Transcript) GrindContext(ctx context.Context, bits int) (uint64, error) {
	if bits < 0 || bits > MaxBits {
		return 0, fmt.Errorf("transcript: Grind: %d bits outside 0..%d: %w", bits, MaxBits, ErrParam)
	}
	if t.err != nil {
		return 0, t.err
	}
	prefix := t.grindPrefix(bits)
	workers := runtime.GOMAXPROCS(0)
	if bits < 12 || t.grindLimit <= grindChunk {
		workers = 1
	}
	var (
		next    atomic.Uint64
		best    atomic.Uint64
		wg      sync.WaitGroup
		errOnce sync.Once
		werr    error
	)
	best.Store(math.MaxUint64)
	limit := t.grindLimit
	work := func(h hash.Hash) {
		defer wg.Done()
		defer func() {
			if r := recover(); r != nil {
				errOnce.Do(func() { werr = fmt.Errorf("transcript: Grind: the hash panicked: %v: %w", r, ErrHash) })
				best.Store(0) // stop the others
			}
		}()
		buf := append([]byte(nil), prefix...)
		nonceAt := buf[len(buf)-8:]
		d := make([]byte, 0, t.size)
		for {
			c := next.Add(1) - 1
			if c >= limit/grindChunk+1 {
				return
			}
			start := c * grindChunk
			if start >= limit || start >= best.Load() || ctx.Err() != nil {
				return
			}
			end := min(start+grindChunk, limit)
			for nonce := start; nonce < end; nonce++ {
				binary.LittleEndian.PutUint64(nonceAt, nonce)
				h.Reset()
				h.Write(buf)
				d = h.Sum(d[:0])
				if len(d) < 16 {
					panic(fmt.Sprintf("Sum gave %d bytes", len(d)))
				}
				if leadingZeros(d, bits) {
					for {
						b := best.Load()
						if nonce >= b || best.CompareAndSwap(b, nonce) {
							break
						}
					}
					break
				}
			}
		}
	}
	// The workers' hashes are made here, one goroutine calling the
	// constructor, a panic of it recovered.
	hs := []hash.Hash{t.h}
	func() {
		defer t.guard()
		for len(hs) < workers {
			h := t.newHash()
			if h == nil {
				t.fail(fmt.Errorf("transcript: Grind: the hash constructor returned nil: %w", ErrHash))
				return
			}
			hs = append(hs, h)
		}
	}()
	if t.err != nil {
		return 0, t.err
	}
	wg.Add(workers)
	for _, h := range hs[1:] {
		go work(h)
	}
	work(hs[0])
	wg.Wait()
	if werr != nil {
		t.fail(werr)
		return 0, t.err
	}
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("transcript: Grind %d bits: %w", bits, err)
	}
	nonce := best.Load()
	if nonce == math.MaxUint64 || nonce >= limit {
		return 0, fmt.Errorf("transcript: Grind %d bits: none of the first %d nonces: %w", bits, limit, ErrGrindLimit)
	}
	t.absorbNonce(bits, nonce)
	if t.err != nil {
		return 0, t.err
	}
	return nonce, nil
}

// GrindSearch is Grind's search as a searcher elsewhere (a GPU) runs it:
// the smallest nonce below Limit whose H(Message ‖ le64(nonce)) starts
// with bits zero bits, which CheckGrind then checks and absorbs, leaving
// the transcript as Grind would.
type GrindSearch struct {
	Message []byte // 0x04 ‖ state ‖ u8(bits)
	SHA256  bool   // H is crypto/sha256 (New without WithHash)
	Limit   uint64 // the nonces Grind tries (WithGrindLimit)
}

// GrindSearch returns the search Grind(bits) would run. Errors as Grind's
// for bits and the transcript's state.
func (t *Transcript) GrindSearch(bits int) (GrindSearch, error) {
	if bits < 0 || bits > MaxBits {
		return GrindSearch{}, fmt.Errorf("transcript: GrindSearch: %d bits outside 0..%d: %w", bits, MaxBits, ErrParam)
	}
	if t.err != nil {
		return GrindSearch{}, t.err
	}
	p := t.grindPrefix(bits)
	return GrindSearch{Message: p[:len(p)-8], SHA256: t.sha256, Limit: t.grindLimit}, nil
}

// CheckGrind checks that nonce meets the proof-of-work condition for bits
// (see GrindContext) and, if it does, absorbs it as Grind does. A wrong
// nonce gives an error wrapping ErrGrind and leaves the state unchanged;
// bits outside 0..MaxBits one wrapping ErrParam.
func (t *Transcript) CheckGrind(bits int, nonce uint64) error {
	if bits < 0 || bits > MaxBits {
		return fmt.Errorf("transcript: CheckGrind: %d bits outside 0..%d: %w", bits, MaxBits, ErrParam)
	}
	if t.err != nil {
		return t.err
	}
	ok := func() bool {
		defer t.guard()
		p := t.grindPrefix(bits)
		binary.LittleEndian.PutUint64(p[len(p)-8:], nonce)
		t.h.Reset()
		t.write(p)
		d := t.h.Sum(nil)
		return len(d) == t.size && leadingZeros(d, bits)
	}()
	if t.err != nil {
		return t.err
	}
	if !ok {
		return fmt.Errorf("transcript: CheckGrind: nonce %d does not give %d leading zero bits: %w", nonce, bits, ErrGrind)
	}
	t.absorbNonce(bits, nonce)
	return t.err
}

// absorbNonce sets state = H(0x05 ‖ state ‖ u8(bits) ‖ le64(nonce)).
func (t *Transcript) absorbNonce(bits int, nonce uint64) {
	defer t.guard()
	t.h.Reset()
	t.writeByte(domNonce)
	t.write(t.state)
	t.writeByte(byte(bits))
	t.writeLen(nonce)
	t.state = t.sum(t.state)
}
