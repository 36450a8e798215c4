package prover

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	bn254fft "github.com/consensys/gnark-crypto/ecc/bn254/fr/fft"
	"github.com/consensys/gnark-crypto/field/babybear"
	babybearfft "github.com/consensys/gnark-crypto/field/babybear/fft"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	goldilocksfft "github.com/consensys/gnark-crypto/field/goldilocks/fft"
	"github.com/consensys/gnark-crypto/field/koalabear"
	koalabearfft "github.com/consensys/gnark-crypto/field/koalabear/fft"

	"github.com/gfpoly/gfpoly/domain"
	"github.com/gfpoly/gfpoly/field/gf64"
)

// codeInfo is what a commitment knows of the code its LDE is a codeword
// of: the blowup, and for GF(2^64) the encoder's BinaryDomains (nil: the
// default). The prime-field domains follow from the sizes (package doc,
// "Evaluation domains and order").
type codeInfo struct {
	blowup  int
	domains BinaryDomains
}

func codeOf(cfg *config) codeInfo { return codeInfo{blowup: cfg.blowup, domains: cfg.domains} }

// traceRows returns the number of trace rows of a commitment of rows LDE
// rows, or an error when the commitment has no code or too few rows.
func (c *Commitment[E]) traceRows(op string) (int, error) {
	if c.code.blowup == 0 {
		return 0, fmt.Errorf("prover: %s: the commitment has no evaluation domain: %w", op, ErrUnavailable)
	}
	if c.rows < c.code.blowup {
		return 0, fmt.Errorf("prover: %s: %d rows is less than the blowup %d, not a codeword: %w", op, c.rows, c.code.blowup, ErrShape)
	}
	return c.rows / c.code.blowup, nil
}

// binarySpaces returns the message and codeword subspaces of a GF(2^64)
// commitment.
func (c *Commitment[E]) binarySpaces(op string) (message, codeword *domain.Subspace, err error) {
	n, err := c.traceRows(op)
	if err != nil {
		return nil, nil, err
	}
	d := c.code.domains
	if d == nil {
		d = DefaultBinaryDomains
	}
	k, lb := log2(n), log2(c.code.blowup)
	message, codeword, err = d(k, lb)
	if err != nil {
		return nil, nil, fmt.Errorf("prover: %s: %w", op, err)
	}
	if message == nil || codeword == nil || message.Dim() != k || codeword.Dim() != k+lb {
		return nil, nil, fmt.Errorf("prover: %s: BinaryDomains gave spaces of the wrong dimensions: %w", op, ErrConfig)
	}
	return message, codeword, nil
}

// primeRoots returns, for a prime field, the coset shift g (gnark-crypto's
// FrMultiplicativeGen) and the generator of the subgroup of order m, the
// domain gnark-crypto's fft.NewDomain(m) builds.
func primeRoots[E Element](m int) (g, w E, err error) {
	var z E
	var gv, wv any
	switch any(z).(type) {
	case goldilocks.Element:
		gv = goldilocksfft.GeneratorFullMultiplicativeGroup()
		wv, err = goldilocks.Generator(uint64(m))
	case babybear.Element:
		gv = babybearfft.GeneratorFullMultiplicativeGroup()
		wv, err = babybear.Generator(uint64(m))
	case koalabear.Element:
		gv = koalabearfft.GeneratorFullMultiplicativeGroup()
		wv, err = koalabear.Generator(uint64(m))
	case fr.Element:
		gv = bn254fft.GeneratorFullMultiplicativeGroup()
		wv, err = fr.Generator(uint64(m))
	default:
		return g, w, fmt.Errorf("prover: %v has no roots of unity: %w", FieldOf[E](), ErrConfig)
	}
	if err != nil {
		return g, w, fmt.Errorf("prover: %v has no subgroup of order %d: %v: %w", FieldOf[E](), m, err, ErrShape)
	}
	return gv.(E), wv.(E), nil
}

// TracePoint returns the point of the trace domain at which row i of the
// trace is the evaluation of its column's polynomial: for GF(2^64), element
// i of the message subspace; for a prime field, ω^i, ω the generator of
// gnark-crypto's domain of Rows()/blowup points. i must lie in 0 ..
// Rows()/blowup − 1 (ErrIndex).
func (c *Commitment[E]) TracePoint(i int) (E, error) {
	var z E
	n, err := c.traceRows("TracePoint")
	if err != nil {
		return z, err
	}
	if i < 0 || i >= n {
		return z, fmt.Errorf("prover: TracePoint %d of %d: %w", i, n, ErrIndex)
	}
	if FieldOf[E]() == GF64 {
		msg, _, err := c.binarySpaces("TracePoint")
		if err != nil {
			return z, err
		}
		return any(msg.Element(i)).(E), nil
	}
	_, w, err := primeRoots[E](n)
	if err != nil {
		return z, err
	}
	o := baseOf[E]()
	return o.exp(w, uint64(i)), nil
}

// CodewordPoint returns the point of the codeword domain at which row i
// of the LDE is the evaluation: for GF(2^64), element i of the codeword
// subspace; for a prime field, g·ω'^i with g the coset shift and ω' the
// generator of the domain of Rows() points. i must lie in 0 .. Rows() − 1
// (ErrIndex).
func (c *Commitment[E]) CodewordPoint(i int) (E, error) {
	var z E
	if _, err := c.traceRows("CodewordPoint"); err != nil {
		return z, err
	}
	if i < 0 || i >= c.rows {
		return z, fmt.Errorf("prover: CodewordPoint %d of %d: %w", i, c.rows, ErrIndex)
	}
	pts := make([]E, 1)
	if err := c.codewordPoints(pts, i); err != nil {
		return z, err
	}
	return pts[0], nil
}

// CodewordPoints writes the points of codeword rows first .. first+len(dst)−1
// into dst (see CodewordPoint), one multiplication a point (GF(2^64): an
// addition), without building the domain.
func (c *Commitment[E]) CodewordPoints(dst []E, first int) error {
	if _, err := c.traceRows("CodewordPoints"); err != nil {
		return err
	}
	if first < 0 || first+len(dst) > c.rows || first+len(dst) < first {
		return fmt.Errorf("prover: CodewordPoints %d..%d of %d: %w", first, first+len(dst)-1, c.rows, ErrIndex)
	}
	return c.codewordPoints(dst, first)
}

// codewordPoints is CodewordPoints without the checks.
func (c *Commitment[E]) codewordPoints(dst []E, first int) error {
	if FieldOf[E]() == GF64 {
		_, cw, err := c.binarySpaces("CodewordPoints")
		if err != nil {
			return err
		}
		binaryPoints(any(dst).([]gf64.Element), cw, first)
		return nil
	}
	g, w, err := primeRoots[E](c.rows)
	if err != nil {
		return err
	}
	o := baseOf[E]()
	geometric(o, dst, o.mul(g, o.exp(w, uint64(first))), w)
	return nil
}

// geometric sets dst[i] = x0·r^i.
func geometric[F any](o baseOps[F], dst []F, x0, r F) {
	x := x0
	for i := range dst {
		dst[i] = x
		x = o.mul(x, r)
	}
}

// binaryPoints sets dst[i] = s.Element(first + i), walking the subspace in
// Gray-code steps: one XOR a point.
func binaryPoints(dst []gf64.Element, s *domain.Subspace, first int) {
	if len(dst) == 0 {
		return
	}
	basis := s.Basis()
	// From j to j+1 the bits 0..t flip, t the number of trailing ones of j.
	cum := make([]gf64.Element, len(basis)+1)
	for b := range basis {
		cum[b+1] = cum[b] ^ basis[b]
	}
	x := s.Element(first)
	for i := range dst {
		dst[i] = x
		x ^= cum[min(trailingOnes(first+i)+1, len(basis))]
	}
}

func trailingOnes(j int) int {
	t := 0
	for j&1 == 1 {
		j >>= 1
		t++
	}
	return t
}

// BinaryDomainsOf returns the message and codeword subspaces a GF(2^64)
// encoder uses for traces of 2^logRows rows (WithBinaryDomains's, or
// DefaultBinaryDomains): row i of the trace is the evaluation at
// message.Element(i), row i of the LDE at codeword.Element(i). It is the
// binary counterpart of PrimeDomains; errors wrap ErrConfig for an encoder
// that is not one of this package's, ErrShape for a size out of range.
func BinaryDomainsOf(enc Encoder[gf64.Element], logRows int) (message, codeword *domain.Subspace, err error) {
	h, ok := enc.(interface{ codeInfo() codeInfo })
	if !ok {
		return nil, nil, fmt.Errorf("prover: BinaryDomainsOf: not an encoder of this package: %w", ErrConfig)
	}
	if logRows < 0 || logRows > MaxLogRows {
		return nil, nil, fmt.Errorf("prover: BinaryDomainsOf: 2^%d rows: %w", logRows, ErrShape)
	}
	ci := h.codeInfo()
	c := &Commitment[gf64.Element]{rows: ci.blowup << logRows, code: ci}
	return c.binarySpaces("BinaryDomainsOf")
}

// codeInfo is what BinaryDomainsOf reads of an encoder.
func (c *core[E]) codeInfo() codeInfo { return codeOf(&c.cfg) }

// codeInfo is what BinaryDomainsOf reads of an encoder.
func (m *multiGPU[E]) codeInfo() codeInfo { return codeOf(&m.cfg) }
