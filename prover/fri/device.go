package fri

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/cuda"
	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/gpu/rowhash"
	"github.com/gfpoly/gfpoly/prover/merkle"
	"github.com/gfpoly/gfpoly/prover/transcript"
)

// DeviceOracle is an Oracle whose LDE a GPU holds (a *prover.Commitment
// kept on the device, through prover.Oracle). When every batch's oracle is
// one, on one device, Open runs there: the DEEP quotients, the folds and
// the layers' trees stay on the device, and what comes back is the roots,
// the last layers (below 512 leaves, folded on the host), the
// final polynomial and the opened leaves and paths. The proof is the one
// the host computes, byte for byte.
type DeviceOracle[E Element, X Challenge] interface {
	Oracle[E, X]
	// Device is the GPU holding the LDE, nil when it is in host memory.
	Device() *gpu.Device
	// CombinePowersDevice writes CombinePowers(alpha) to dst, a buffer of
	// Rows() elements on Device().
	CombinePowersDevice(dst *gpu.Buffer[X], alpha X) error
	// ReserveDevice takes bytes of the device memory its owner may use
	// (an encoder's budget) for the opening's buffers, until release is
	// called; an error says why they do not fit, and the opening then
	// runs on the host with that reason.
	ReserveDevice(bytes int64) (release func(), err error)
}

// devMinLeaves is the fewest leaves of a layer folded and hashed on the
// device: below, the layer comes back to the host (a few KiB) and the
// rounds end there, where a kernel launch costs more than the work.
const devMinLeaves = 1 << 9

// devMaxPoints is FRI_MAXP of cuda/fri.cu: the most opening points of a
// batch whose quotient the device computes.
const devMaxPoints = 8

// devThreads, devRows and devRowsBinary are FRI_T, FRI_K and FRI_KB of
// cuda/fri.cu.
const (
	devThreads    = 256
	devRows       = 4
	devRowsBinary = 4
)

// devOpen is an opening's device state: the layers' codewords in the leaf
// layout of their trees, the trees' nodes, the kernels.
type devOpen[E Element, X Challenge] struct {
	dev      *gpu.Device
	release  func()           // gives back the reservation of the buffers below
	rounds   int              // rounds 0 … rounds−1 run on the device
	layers   []*gpu.Buffer[E] // layers[r], r ≤ rounds (layers[rounds]: coordinate by coordinate), views of layerMem
	layerMem *gpu.Buffer[E]
	nodeMem  *gpu.Buffer[byte]
	hash     []*rowhash.Hasher[E] // hash[r], r < rounds: layer r's tree
	nodes    []*gpu.Buffer[byte]  // nodes[r]: layer r's tree above its leaves, views of nodeMem
	g        *gpu.Buffer[X]       // a batch's combination
	deep     *gpu.Function
	fold     [5]*gpu.Function // by 2^k
	hs       merkle.Hasher
}

// free releases the device state; layers and nodes stay until the
// openings are gathered.
func (d *devOpen[E, X]) free() {
	if d == nil {
		return
	}
	for _, h := range d.hash {
		if h != nil {
			h.Close()
		}
	}
	if d.layerMem != nil {
		d.layerMem.Free()
	}
	if d.nodeMem != nil {
		d.nodeMem.Free()
	}
	if d.g != nil {
		d.g.Free()
	}
	if d.release != nil {
		d.release()
	}
}

// devName is the element type's name in cuda.FRIProgram.
func devName[E Element]() string {
	var z E
	switch any(z).(type) {
	case gf64.Element:
		return "gf64"
	case babybear.Element:
		return "babybear"
	case koalabear.Element:
		return "koalabear"
	case goldilocks.Element:
		return "goldilocks"
	case fr.Element:
		return "bn254"
	}
	return ""
}

// newDevOpen prepares the opening on the device before the transcript
// moves: every buffer is allocated and every kernel loaded here, so that a
// device that cannot take the opening leaves it to the host (nil and the
// reason) with nothing drawn yet. No device oracle at all is (nil, "").
func newDevOpen[E Element, X Challenge](o alg[E, X], cfg *Config, pl *plan, doms []layer[E, X], batches []Batch[E, X]) (*devOpen[E, X], string) {
	var dev *gpu.Device
	for b, bt := range batches {
		do, ok := bt.Oracle.(DeviceOracle[E, X])
		var d *gpu.Device
		if ok {
			if err := guard(func() error { d = do.Device(); return nil }); err != nil {
				return nil, fmt.Sprintf("batch %d: Device: %v", b, err)
			}
		}
		if d == nil {
			if b == 0 {
				return nil, ""
			}
			return nil, fmt.Sprintf("batch %d is in host memory", b)
		}
		if dev == nil {
			dev = d
		} else if d != dev {
			return nil, fmt.Sprintf("batch %d is on another device", b)
		}
	}
	if cfg.Host {
		return nil, "Config.Host"
	}
	rounds := 0
	for r, a := range pl.arities {
		if doms[r].size()/a < devMinLeaves {
			break
		}
		rounds++
	}
	if rounds == 0 {
		if len(pl.arities) == 0 {
			return nil, "no fold"
		}
		return nil, fmt.Sprintf("a first layer of %d leaves (the device folds from %d)", doms[0].size()/pl.arities[0], devMinLeaves)
	}
	if pl.logN[0] >= devPow {
		return nil, fmt.Sprintf("a codeword of 2^%d entries", pl.logN[0])
	}
	maxRows := 0
	for r := 0; r <= rounds; r++ {
		for _, b := range pl.rollIn[r] {
			if n := len(batches[b].Points); n > devMaxPoints {
				return nil, fmt.Sprintf("batch %d has %d points (the device takes %d)", b, n, devMaxPoints)
			}
			maxRows = max(maxRows, doms[r].size())
		}
	}
	ts, why := rowhash.FieldSpec[E](cfg.hasher())
	if !cfg.hasher().Default() && why != "" {
		return nil, "the layers' hash: " + why
	}
	// What the buffers below take, from batch 0's budget.
	deg := o.deg()
	var z E
	var zx X
	elems, nodes, states := 0, 0, 0
	for r := 0; r <= rounds; r++ {
		elems += doms[r].size() * deg
		if r < rounds {
			leaves := doms[r].size() / pl.arities[r]
			nodes += (leaves - 1) * rowhash.DigestSize
			if ts != nil {
				states += rowhash.FieldStateBytes(*ts, leaves)
			} else {
				states += rowhash.StateBytes(leaves)
			}
		}
	}
	need := int64(elems)*int64(unsafe.Sizeof(z)) + int64(nodes) + int64(states) + int64(maxRows)*int64(unsafe.Sizeof(zx))
	var release func()
	if err := guard(func() (err error) {
		release, err = batches[0].Oracle.(DeviceOracle[E, X]).ReserveDevice(need)
		return err
	}); err != nil {
		return nil, fmt.Sprintf("the opening's device buffers (%.1f MiB): %v", float64(need)/(1<<20), err)
	}
	d := &devOpen[E, X]{dev: dev, rounds: rounds, hs: cfg.hasher(), release: release}
	fail := func(what string, err error) (*devOpen[E, X], string) {
		d.free()
		return nil, fmt.Sprintf("%s: %v", what, err)
	}
	name := devName[E]()
	m, err := dev.Module(cuda.FRIProgram(name))
	if err != nil {
		return fail("the kernels", err)
	}
	if d.deep, err = m.Function("fri_" + name + "_deep"); err != nil {
		return fail("the kernels", err)
	}
	for k := 1; k <= 4; k++ {
		if d.fold[k], err = m.Function(fmt.Sprintf("fri_%s_fold%d", name, k)); err != nil {
			return fail("the kernels", err)
		}
	}
	// One allocation for the layers and one for the nodes, views for
	// each: an allocation or a free costs more than a layer's kernels.
	d.layers = make([]*gpu.Buffer[E], rounds+1)
	d.hash = make([]*rowhash.Hasher[E], rounds)
	d.nodes = make([]*gpu.Buffer[byte], rounds)
	if d.layerMem, err = gpu.Alloc[E](dev, elems); err != nil {
		return fail("the layers", err)
	}
	if d.nodeMem, err = gpu.Alloc[byte](dev, nodes); err != nil {
		return fail("the layers' trees", err)
	}
	elems, nodes = 0, 0
	for r := 0; r <= rounds; r++ {
		n := doms[r].size() * deg
		if d.layers[r], err = d.layerMem.View(elems, n); err != nil {
			return fail(fmt.Sprintf("layer %d", r), err)
		}
		elems += n
		if r == rounds {
			break
		}
		leaves := doms[r].size() / pl.arities[r]
		if d.hash[r], err = rowhash.NewMerkle[E](dev, leaves, d.hs); err != nil {
			return fail(fmt.Sprintf("layer %d's tree", r), err)
		}
		n = (leaves - 1) * rowhash.DigestSize
		if d.nodes[r], err = d.nodeMem.View(nodes, n); err != nil {
			return fail(fmt.Sprintf("layer %d's tree", r), err)
		}
		nodes += n
	}
	if d.g, err = gpu.Alloc[X](dev, maxRows); err != nil {
		return fail("the combination", err)
	}
	return d, ""
}

// layout is cuda/fri.cu's FriLayout of layer r: the leaves of its fold
// (r < rounds), or coordinate by coordinate (r = rounds).
func (d *devOpen[E, X]) layout(pl *plan, r int, strided bool) []byte {
	logM, logA := pl.logN[r], 0
	if r < d.rounds {
		logA = bits.TrailingZeros(uint(pl.arities[r]))
		logM -= logA
	}
	s := uint32(0)
	if strided {
		s = 1
	}
	b := binary.LittleEndian.AppendUint32(nil, uint32(logM))
	b = binary.LittleEndian.AppendUint32(b, uint32(logA))
	b = binary.LittleEndian.AppendUint32(b, s)
	return binary.LittleEndian.AppendUint32(b, 0)
}

// grid returns a grid-stride launch's blocks for n items of per threads.
func (d *devOpen[E, X]) grid(n, per int) gpu.Dim3 {
	g := (n + per*devThreads - 1) / (per * devThreads)
	if lim := 32 * d.dev.Info().Multiprocessors; lim > 0 && g > lim {
		g = lim
	}
	return gpu.Dim3{X: max(g, 1)}
}

// quotient adds batch b's DEEP terms, times scale, to layer r (acc unset:
// stores them) on the device: the batch's combination by the oracle,
// the fraction (G·A − B)/D of addQuotient's deepFraction, times scale.
func (d *devOpen[E, X]) quotient(o alg[E, X], pl *plan, r int, bt Batch[E, X], dom layer[E, X], values [][]X, alpha X, off uint64, scale X, acc bool) error {
	n := dom.size()
	g, err := d.g.View(0, n)
	if err != nil {
		return err
	}
	do := bt.Oracle.(DeviceOracle[E, X])
	if err := guard(func() error { return do.CombinePowersDevice(g, alpha) }); err != nil {
		return fmt.Errorf("CombinePowersDevice: %w", err)
	}
	var zero X
	if alpha == zero {
		return fmt.Errorf("the batching challenge is zero: %w", ErrParams)
	}
	v, cinv := deepTerms(o, bt, values, alpha, off)
	A, B, D := deepFraction(o, bt.Points, v, cinv)
	P := len(bt.Points)
	// FriDeep: A and B times scale, then D's coefficients, or for
	// GF(2^64) the points themselves (fri_gf64_deep inverts x − z_p
	// through its norm).
	f := make([]X, 3*devMaxPoints+1)
	for k := range P {
		f[k] = o.xmul(A[k], scale)
		f[devMaxPoints+k] = o.xmul(B[k], scale)
	}
	rows := devRows
	if o.field() == GF64 {
		copy(f[2*devMaxPoints:], bt.Points)
		rows = devRowsBinary
	} else {
		copy(f[2*devMaxPoints:], D)
	}
	par := append(rawBytes(f...), dom.devPoints(false)...)
	a := uint32(0)
	if acc {
		a = 1
	}
	cfg := gpu.LaunchConfig{Grid: d.grid(n, rows), Block: gpu.Dim3{X: devThreads}}
	return d.deep.Launch(cfg, d.layers[r], g, uint64(n), d.layout(pl, r, dom.strided()), par, uint32(P), a)
}

// run does rounds 0 … rounds−1 of Open's loop on the device (the
// quotients of the batches that join layers 0 … rounds, the trees, the
// challenges, the folds) and returns layer rounds, the codeword the host
// goes on with.
func (d *devOpen[E, X]) run(o alg[E, X], t *transcript.Transcript, p *Proof[E, X], pl *plan, doms, bdoms []layer[E, X], batches []Batch[E, X], alpha X, offs []uint64) ([]X, error) {
	one := o.xembed(o.eone())
	for k, b := range pl.rollIn[0] {
		if err := d.quotient(o, pl, 0, batches[b], bdoms[b], p.Values[b], alpha, offs[b], one, k > 0); err != nil {
			return nil, fmt.Errorf("fri: Open: batch %d: %w", b, err)
		}
	}
	for r := range d.rounds {
		a := pl.arities[r]
		if err := d.hash[r].Absorb(nil, d.layers[r]); err != nil {
			return nil, fmt.Errorf("fri: Open: layer %d: %w", r, err)
		}
		if err := d.hash[r].Tree(nil, d.nodes[r]); err != nil {
			return nil, fmt.Errorf("fri: Open: layer %d: %w", r, err)
		}
		d.hash[r].Close()
		root := make([]byte, rowhash.DigestSize)
		top, err := d.nodes[r].View(d.nodes[r].Len()-rowhash.DigestSize, rowhash.DigestSize)
		if err == nil {
			err = top.Download(root)
		}
		if err != nil {
			return nil, fmt.Errorf("fri: Open: layer %d: %w", r, err)
		}
		p.Roots = append(p.Roots, root)
		t.AbsorbRoot("fri layer", root)
		beta, err := transcript.Draw[X](t, "fri beta")
		if err != nil {
			return nil, fmt.Errorf("fri: Open: %w", err)
		}
		m := doms[r].size() / a
		k := bits.TrailingZeros(uint(a))
		cfg := gpu.LaunchConfig{Grid: d.grid(m, 1), Block: gpu.Dim3{X: devThreads}}
		err = d.fold[k].Launch(cfg, d.layers[r+1], d.layers[r], uint64(m), uint32(bits.TrailingZeros(uint(m))),
			d.layout(pl, r+1, doms[r+1].strided()), doms[r].devFold(a, beta))
		if err != nil {
			return nil, fmt.Errorf("fri: Open: layer %d: %w", r, err)
		}
		if len(pl.rollIn[r+1]) > 0 {
			c := xexp(o, beta, uint64(a))
			for _, b := range pl.rollIn[r+1] {
				if err := d.quotient(o, pl, r+1, batches[b], bdoms[b], p.Values[b], alpha, offs[b], c, true); err != nil {
					return nil, fmt.Errorf("fri: Open: batch %d: %w", b, err)
				}
			}
		}
	}
	// The layer the host goes on with.
	n, deg := doms[d.rounds].size(), o.deg()
	flat := make([]E, n*deg)
	if err := d.layers[d.rounds].Download(flat); err != nil {
		return nil, fmt.Errorf("fri: Open: layer %d: %w", d.rounds, err)
	}
	cur := make([]X, n)
	cs := coords[X, E](cur, deg)
	for c := range deg {
		for i := range n {
			cs[i*deg+c] = flat[c*n+i]
		}
	}
	return cur, nil
}

// grind is t.Grind(bits) with the search on the device where the
// transcript hashes with SHA-256 (rowhash.Grind finds the smallest nonce,
// as the host does), checked and absorbed by CheckGrind.
func (d *devOpen[E, X]) grind(t *transcript.Transcript, bits int) (uint64, error) {
	gs, err := t.GrindSearch(bits)
	if err != nil {
		return 0, err
	}
	if bits == 0 || !gs.SHA256 || len(gs.Message) != rowhash.GrindMessageSize {
		return t.Grind(bits)
	}
	nonce, found, err := rowhash.Grind(d.dev, gs.Message, bits, gs.Limit)
	if err != nil {
		return 0, err
	}
	if !found {
		return 0, fmt.Errorf("no nonce below %d gives %d zero bits: %w", gs.Limit, bits, transcript.ErrGrindLimit)
	}
	if err := t.CheckGrind(bits, nonce); err != nil {
		return 0, fmt.Errorf("the device's nonce: %w", err)
	}
	return nonce, nil
}

// openLayers opens layers 0 … len(idx)−1 at idx[r] from the device: each
// layer's rows and their siblings, and the paths above the sibling leaves,
// gathered together (one kernel and one copy for every layer), merged into
// the multi-openings the host's trees give.
func (d *devOpen[E, X]) openLayers(idx [][]int) ([]*merkle.MultiOpening[E], error) {
	g := rowhash.NewGather(d.dev)
	reads := make([]*rowhash.OpeningRead[E], len(idx))
	for r, ix := range idx {
		var err error
		if reads[r], err = rowhash.AddOpening(g, d.layers[r], d.nodes[r], d.hash[r].Rows(), ix); err != nil {
			return nil, fmt.Errorf("layer %d: %w", r, err)
		}
	}
	if err := g.Run(nil); err != nil {
		return nil, fmt.Errorf("the layers' openings: %w", err)
	}
	mos := make([]*merkle.MultiOpening[E], len(idx))
	for r, rd := range reads {
		op, err := rd.Get(d.hs)
		if err == nil {
			mos[r], err = op.Merge()
		}
		if err != nil {
			return nil, fmt.Errorf("layer %d: %w", r, err)
		}
	}
	return mos, nil
}

// deviceName describes where the device opening ran.
func deviceName(d *gpu.Device) string {
	return fmt.Sprintf("GPU %d (%s)", d.Info().Ordinal, d.Info().Name)
}
