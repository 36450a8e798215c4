package rs

import (
	"fmt"
	"slices"
	"sync"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// Layout says where a Code's message symbols sit in its codewords.
type Layout uint8

const (
	// General: the message space is not contained in the codeword space
	// (for example a disjoint coset, as STARK provers use); a codeword holds
	// no copy of the message.
	General Layout = iota
	// Systematic: the message space lies inside the codeword space, and
	// message symbol i is codeword symbol Position(i). When the codeword
	// basis starts with the message basis and the shifts agree, Position(i)
	// = i.
	Systematic
)

func (l Layout) String() string {
	switch l {
	case General:
		return "general"
	case Systematic:
		return "systematic"
	}
	return fmt.Sprintf("Layout(%d)", uint8(l))
}

// A Code is the Reed–Solomon code of the polynomials of degree < 2^k,
// messages being their 2^k evaluations over a k-dimensional affine subspace S
// and codewords their 2^n evaluations over an n-dimensional affine subspace T
// (n > k), both in the subspace order of package domain. A Code is immutable
// and safe for concurrent use.
type Code struct {
	msg, cw *domain.Subspace
	k, n    int
	layout  Layout
	prefix  bool // systematic with Position(i) = i
	// basisPrefix: T's basis starts with S's basis (any shifts).
	basisPrefix bool
	// prefix only: cosets[i] is the coset holding codeword symbols
	// [i·2^k, (i+1)·2^k), a shift of S (cosets[0], S itself, is unused).
	cosets []*domain.Subspace
	pos    []int // systematic, not prefix: codeword position of message symbol i

	er *erasure

	workers int
	acc     Accelerator // nil: the CPU
	helpers *helpers
	jobs    sync.Pool // *job
	nbufs   sync.Pool // *[]gf64.Element, 5·2^n elements (decoding)
	vbufs   sync.Pool // *[]gf64.Element, 2^n elements (Verify, DecodeAt)
	mbufs   sync.Pool // *[]bool, 2^n entries (ReconstructAt, DecodeAt)
}

// maxDim bounds the codeword dimension so that lengths fit an int and
// tables stay addressable.
const maxDim = 40

// New returns the code with messages over the space message and codewords over
// the space codeword. The codeword space must have a larger dimension. When the
// message space lies inside the codeword space the layout is Systematic (found
// whatever the two bases are), otherwise General; WithSystematic makes the
// General case an error (ErrNotNested). New precomputes the decoder's tables
// (O(n²) elements); the transform plans are domain's, built on first use.
func New(message, codeword *domain.Subspace, opts ...Option) (*Code, error) {
	if message == nil {
		return nil, fmt.Errorf("%w: New: message space is nil", ErrDimension)
	}
	if codeword == nil {
		return nil, fmt.Errorf("%w: New: codeword space is nil", ErrDimension)
	}
	var cfg config
	for i, opt := range opts {
		if opt == nil {
			return nil, fmt.Errorf("rs: New: option %d is nil", i)
		}
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}
	k, n := message.Dim(), codeword.Dim()
	if n <= k {
		return nil, fmt.Errorf("%w: New: message dimension %d, codeword dimension %d", ErrDimension, k, n)
	}
	if n > maxDim {
		return nil, fmt.Errorf("%w: New: codeword dimension %d exceeds %d", ErrDimension, n, maxDim)
	}
	c := &Code{msg: message, cw: codeword, k: k, n: n, workers: cfg.workers, helpers: new(helpers), acc: cfg.acc}
	if nestedIn(message, codeword) {
		c.layout = Systematic
		c.prefix, c.pos = positions(message, codeword)
	} else if cfg.systematic {
		return nil, fmt.Errorf("%w: New: WithSystematic, but the %d-dimensional message space is not inside the codeword space", ErrNotNested, k)
	}
	if c.prefix {
		// Cosets 1.. of S in T, for encodePrefix.
		basis := codeword.Basis()[:k]
		c.cosets = make([]*domain.Subspace, 1<<(n-k))
		for i := 1; i < len(c.cosets); i++ {
			s, err := domain.New(codeword.Element(i<<k), basis...)
			if err != nil {
				return nil, fmt.Errorf("rs: New: coset %d of the message space: %w", i, err)
			}
			c.cosets[i] = s
		}
	}
	c.basisPrefix = slices.Equal(codeword.Basis()[:k], message.Basis())
	er, err := newErasure(codeword, k)
	if err != nil {
		return nil, fmt.Errorf("rs: New: %w", err)
	}
	c.er = er
	c.jobs.New = func() any { return new(job) }
	N := 1 << n
	c.nbufs.New = func() any { b := make([]gf64.Element, 5*N); return &b }
	c.vbufs.New = func() any { b := make([]gf64.Element, N); return &b }
	c.mbufs.New = func() any { b := make([]bool, N); return &b }
	return c, nil
}

// nestedIn reports whether s ⊆ t: s's shift and each shift + β_j in t.
func nestedIn(s, t *domain.Subspace) bool {
	if !t.Contains(s.Shift()) {
		return false
	}
	for _, b := range s.Basis() {
		if !t.Contains(s.Shift() ^ b) {
			return false
		}
	}
	return true
}

// positions returns where the points of s sit in t (s ⊆ t). Index is affine
// over GF(2), so position(i) = position(0) + Σ bit_j(i)·(position(2^j) +
// position(0)), built by doubling. prefix reports position(i) = i, in which
// case no table is kept.
func positions(s, t *domain.Subspace) (prefix bool, pos []int) {
	p0, _ := t.Index(s.Shift())
	basis := s.Basis()
	delta := make([]int, len(basis))
	prefix = p0 == 0
	for j, b := range basis {
		pj, _ := t.Index(s.Shift() ^ b)
		delta[j] = pj ^ p0
		prefix = prefix && delta[j] == 1<<j
	}
	if prefix {
		return true, nil
	}
	pos = make([]int, 1<<len(basis))
	pos[0] = p0
	for j, d := range delta {
		lo := 1 << j
		for r := range lo {
			pos[lo+r] = pos[r] ^ d
		}
	}
	return false, pos
}

// MessageSpace returns the message space S.
func (c *Code) MessageSpace() *domain.Subspace { return c.msg }

// CodewordSpace returns the codeword space T.
func (c *Code) CodewordSpace() *domain.Subspace { return c.cw }

// MessageLen returns 2^k, the number of message symbols.
func (c *Code) MessageLen() int { return 1 << c.k }

// CodewordLen returns 2^n, the number of codeword symbols.
func (c *Code) CodewordLen() int { return 1 << c.n }

// Layout returns the code's layout.
func (c *Code) Layout() Layout { return c.layout }

// Position returns the codeword position of message symbol i and true for a
// Systematic code, or false for a General one or i out of range.
func (c *Code) Position(i int) (int, bool) {
	if c.layout != Systematic || i < 0 || i >= 1<<c.k {
		return 0, false
	}
	if c.prefix {
		return i, true
	}
	return c.pos[i], true
}

func (c *Code) checkLen(op, name string, got, want int) error {
	if got != want {
		return fmt.Errorf("%w: %s: %s has %d elements, want %d", ErrLength, op, name, got, want)
	}
	return nil
}

// Encode sets dst (2^n elements) to the codeword of msg (2^k evaluations over
// the message space): the evaluations over the codeword space of the
// polynomial of degree < 2^k that msg interpolates, equal to
// T.FFT(S.IFFT(msg) zero-padded) bit for bit. It is domain's LDE, which spreads
// one column over GOMAXPROCS goroutines (by cosets and butterfly layers); with
// WithWorkers(1) it runs on the calling goroutine alone. msg is not modified;
// dst and msg must not overlap.
func (c *Code) Encode(dst, msg []gf64.Element) error {
	if err := c.checkLen("Encode", "dst", len(dst), 1<<c.n); err != nil {
		return err
	}
	if err := c.checkLen("Encode", "msg", len(msg), 1<<c.k); err != nil {
		return err
	}
	switch {
	case c.acc != nil:
		return c.accEncode("Encode", [][]gf64.Element{dst}, [][]gf64.Element{msg})
	case c.workers == 1:
		c.encodeSerial(dst, msg)
	case c.prefix:
		c.encodePrefix(dst, msg)
	default:
		must(domain.LDE(dst, msg, c.msg, c.cw))
	}
	return nil
}

// encodePrefix is the LDE of a prefix-systematic code without the transform
// of coset 0, which is the message itself: the inverse novel transform over
// S, then one forward novel transform per other coset of S in T (S and the
// cosets share the novel basis). Each transform is spread over GOMAXPROCS
// goroutines by domain.
func (c *Code) encodePrefix(dst, msg []gf64.Element) {
	K := 1 << c.k
	coeffs := dst[K : 2*K]
	copy(coeffs, msg)
	must(c.msg.NovelIFFT(coeffs))
	for i := 2; i < len(c.cosets); i++ {
		region := dst[i*K : (i+1)*K]
		copy(region, coeffs)
		must(c.cosets[i].NovelFFT(region))
	}
	must(c.cosets[1].NovelFFT(coeffs))
	copy(dst[:K], msg)
}

// encodeSerial encodes one column on the calling goroutine: domain's batch
// LDE with one column runs serial transforms.
func (c *Code) encodeSerial(dst, msg []gf64.Element) {
	must(domain.LDEBatch([][]gf64.Element{dst}, [][]gf64.Element{msg}, c.msg, c.cw))
}

// must panics on an error from a domain call whose arguments the Code has
// already checked: such an error is a bug in this package.
func must(err error) {
	if err != nil {
		panic("rs: internal error: " + err.Error())
	}
}

// EncodeCoeffs sets dst (2^n elements) to the evaluations over the codeword
// space of the polynomial with monomial coefficients coeffs (c_0 first, 1 to
// 2^k of them; missing high coefficients are zero): domain's truncated FFT
// over T. coeffs is not modified; dst and coeffs must not overlap.
func (c *Code) EncodeCoeffs(dst, coeffs []gf64.Element) error {
	if err := c.checkLen("EncodeCoeffs", "dst", len(dst), 1<<c.n); err != nil {
		return err
	}
	if len(coeffs) == 0 || len(coeffs) > 1<<c.k {
		return fmt.Errorf("%w: EncodeCoeffs: coeffs has %d elements, want 1 to %d", ErrLength, len(coeffs), 1<<c.k)
	}
	copy(dst, coeffs)
	must(c.cw.FFTTrunc(dst, len(coeffs)))
	return nil
}

// EncodeBatch encodes many columns: dst[i] (2^n elements) gets the codeword of
// msgs[i] (2^k elements), as Encode does. Whole columns are spread over the
// cores, each encoded by serial transforms: with the default workers by
// domain.LDEBatch over GOMAXPROCS goroutines (one small allocation per call),
// with WithWorkers(w) by the Code's own w goroutines (rs allocates nothing;
// domain's one-column entry point allocates a closure per column). With fewer
// columns than workers, each column is spread over the cores instead. No
// msgs[i] is modified; no dst[i] may overlap another dst or any msgs[j].
// Shapes are checked before any work is done.
func (c *Code) EncodeBatch(dst, msgs [][]gf64.Element) error {
	if len(dst) != len(msgs) {
		return fmt.Errorf("%w: EncodeBatch: %d destination columns for %d messages", ErrLength, len(dst), len(msgs))
	}
	for i := range msgs {
		if len(msgs[i]) != 1<<c.k {
			return c.checkLen("EncodeBatch", fmt.Sprintf("msgs[%d]", i), len(msgs[i]), 1<<c.k)
		}
		if len(dst[i]) != 1<<c.n {
			return c.checkLen("EncodeBatch", fmt.Sprintf("dst[%d]", i), len(dst[i]), 1<<c.n)
		}
	}
	if c.acc != nil {
		return c.accEncode("EncodeBatch", dst, msgs)
	}
	w := c.workerCount()
	if len(msgs) < w {
		// Fewer columns than workers: each column spreads over the cores.
		for i := range msgs {
			must(domain.LDE(dst[i], msgs[i], c.msg, c.cw))
		}
		return nil
	}
	if c.workers == 0 {
		// All cores: domain's batch, columns over GOMAXPROCS goroutines, one
		// small allocation per call.
		must(domain.LDEBatch(dst, msgs, c.msg, c.cw))
		return nil
	}
	j := c.newJob(len(msgs))
	j.dsts, j.msgs = dst, msgs
	c.do(j, w)
	return nil
}

// Verify reports whether word (2^n elements) is a codeword: the evaluations
// over the codeword space of a polynomial of degree < 2^k. It costs one
// novel-basis inverse transform, n·2^(n−1) multiplications; word is not
// modified.
func (c *Code) Verify(word []gf64.Element) (bool, error) {
	if err := c.checkLen("Verify", "word", len(word), 1<<c.n); err != nil {
		return false, err
	}
	bp := c.vbufs.Get().(*[]gf64.Element)
	defer c.vbufs.Put(bp)
	buf := *bp
	copy(buf, word)
	c.er.tinv(buf)
	for _, v := range buf[1<<c.k:] {
		if v != 0 {
			return false, nil
		}
	}
	return true, nil
}

// checkErasure validates an erasure-decoding call and returns the number of
// erased positions.
func (c *Code) checkErasure(op string, word []gf64.Element, present []bool) (int, error) {
	N, K := 1<<c.n, 1<<c.k
	if err := c.checkLen(op, "word", len(word), N); err != nil {
		return 0, err
	}
	if len(present) != N {
		return 0, fmt.Errorf("%w: %s: present has %d entries, want %d", ErrLength, op, len(present), N)
	}
	have := 0
	for _, p := range present {
		if p {
			have++
		}
	}
	if have < K {
		return 0, fmt.Errorf("%w: %s: %d of %d positions present, need at least %d", ErrTooFewSymbols, op, have, N, K)
	}
	return N - have, nil
}

// Reconstruct sets dst (2^n elements) to the codeword that agrees with word at
// the positions where present is true; word's other entries are ignored. At
// least 2^k positions must be present (else ErrTooFewSymbols, saying how
// many are needed); when more are, they must all lie on one codeword (else
// ErrNotCodeword). It costs O(2^n·n) field operations plus the erasure
// locator's product tree (at most O(2^n·n²)), never Lagrange interpolation.
// dst may be word itself (then only erased entries change); otherwise they
// must not overlap. word and present are not modified.
func (c *Code) Reconstruct(dst, word []gf64.Element, present []bool) error {
	erased, err := c.checkErasure("Reconstruct", word, present)
	if err != nil {
		return err
	}
	if err := c.checkLen("Reconstruct", "dst", len(dst), 1<<c.n); err != nil {
		return err
	}
	bp := c.nbufs.Get().(*[]gf64.Element)
	defer c.nbufs.Put(bp)
	if !c.er.reconstruct(dst, word, present, erased, (*bp)[:4<<c.n], c.workerCount() > 1) {
		return fmt.Errorf("%w: Reconstruct: the %d present symbols fit no polynomial of degree < %d", ErrNotCodeword, len(word)-erased, 1<<c.k)
	}
	return nil
}

// Decode sets msg (2^k elements) to the message whose codeword agrees with
// word at the positions where present is true, with Reconstruct's rules and
// errors. word and present are not modified.
func (c *Code) Decode(msg, word []gf64.Element, present []bool) error {
	erased, err := c.checkErasure("Decode", word, present)
	if err != nil {
		return err
	}
	if err := c.checkLen("Decode", "msg", len(msg), 1<<c.k); err != nil {
		return err
	}
	N := 1 << c.n
	bp := c.nbufs.Get().(*[]gf64.Element)
	defer c.nbufs.Put(bp)
	cw, buf := (*bp)[:N], (*bp)[N:]
	if !c.er.reconstruct(cw, word, present, erased, buf, c.workerCount() > 1) {
		return fmt.Errorf("%w: Decode: the %d present symbols fit no polynomial of degree < %d", ErrNotCodeword, N-erased, 1<<c.k)
	}
	switch {
	case c.prefix:
		copy(msg, cw)
	case c.layout == Systematic:
		for i, p := range c.pos {
			msg[i] = cw[p]
		}
	case c.basisPrefix:
		// S's novel basis is the first 2^k of T's: the codeword's novel
		// coefficients over T are the message's over S.
		must(c.cw.NovelIFFT(cw))
		must(c.msg.NovelFFT(cw[:len(msg)]))
		copy(msg, cw)
	default:
		must(c.cw.IFFT(cw))
		must(c.msg.FFT(cw[:len(msg)]))
		copy(msg, cw)
	}
	return nil
}
