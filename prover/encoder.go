package prover

import (
	"fmt"
	"hash"
	"runtime"
	"sync"
	"time"

	"github.com/gfpoly/gfpoly/gpu"
	gp2 "github.com/gfpoly/gfpoly/gpu/poseidon2"
	"github.com/gfpoly/gfpoly/internal/hugepage"
	"github.com/gfpoly/gfpoly/prover/merkle"
)

// Backend is what every encoder has, whatever its field: the comparison
// tools hold encoders of different fields through it.
type Backend interface {
	// Name is "<field>/<device kind>", e.g. "gf64/cpu" or "bn254/gpu".
	Name() string
	// Field is the field of the traces the encoder takes.
	Field() Field
	// Device describes where the transforms run ("cpu (2 goroutines)", a GPU's name).
	Device() string
	// Blowup is the ratio of codeword length to trace length.
	Blowup() int
	// Close releases what the encoder holds (device memory, plans); the
	// commitments it made stay valid until their own Close.
	Close() error
	// DeviceMemory reports a GPU encoder's device budget and what its
	// commitments kept on the device hold now (zero for a CPU encoder).
	DeviceMemory() DeviceMemory
}

// Encoder encodes traces of one field: the low-degree extension (LDE) of
// every column and a Merkle commitment to the rows of the LDE. An Encoder
// is configured once (New) and may be used for traces of any size; it is
// safe for use by one goroutine at a time.
type Encoder[E Element] interface {
	Backend
	// Encode returns the LDE of every column of src: lde[c] holds the
	// Blowup()·2^k evaluations of column c's interpolant over the codeword
	// domain, in the domain's order (see the package documentation).
	Encode(src Source[E]) (lde [][]E, err error)
	// EncodeInto is Encode into the caller's columns: dst[c] must hold
	// Blowup()·2^k elements. A prover that encodes trace after trace reuses
	// its buffers this way and saves the allocation (and the page faults) of
	// a new LDE each time. dst must not overlap src.
	EncodeInto(dst [][]E, src Source[E]) error
	// Commit encodes src and commits to the rows of its LDE. On a GPU
	// backend with the default hash the LDE and its tree stay in device
	// memory (the fastest way to commit: only the root comes back) until
	// the commitment's Close; see the package documentation, "Commitments
	// kept on the device".
	Commit(src Source[E]) (*Commitment[E], error)
	// CommitInto is Commit into the caller's columns, as EncodeInto; the
	// Commitment keeps dst. On a GPU backend the rows are hashed while the
	// LDE is on the device, then the LDE and the tree's digests come to the
	// host: for a prover that needs the whole LDE in host memory.
	CommitInto(dst [][]E, src Source[E]) (*Commitment[E], error)
	// CommitLDE commits to the rows of an LDE the caller already has (for
	// instance from Encode). The Commitment keeps lde, which must not be
	// modified while it is in use.
	CommitLDE(lde [][]E) (*Commitment[E], error)
	// CommitDeviceLDE commits to the rows of an LDE in device memory, cols
	// columns end to end in lde (the caller's: the commitment copies it).
	// A GPU encoder on lde's device keeps the commitment there, as Commit
	// does; any other encoder copies lde to the host and commits as
	// CommitLDE.
	CommitDeviceLDE(lde *gpu.Buffer[E], cols int) (*Commitment[E], error)
	// Prepare builds now what a first Commit of a trace of 2^logRows rows
	// and cols columns would build (transform tables, kernels, pinned
	// staging, device memory and hash states on a GPU, the CPU's plans) by
	// committing to a trace of zeros of that shape, streamed through the
	// encoder's staging, so that the first such Commit costs what later
	// ones do. A prover that knows its trace size calls it once, after New.
	Prepare(logRows, cols int) error
}

// Progress reports how far a long Encode or Commit has gone.
type Progress struct {
	// "encode" (Done, Total in columns), "commit" (in rows), or
	// "fallback" (a GPU backend's Commit could not keep the LDE on the
	// device and makes it in host memory: Commitment.Resident says why).
	Phase string
	Done  int
	Total int
}

// Option configures New.
type Option func(*config) error

type config struct {
	blowup   int
	hash     func() hash.Hash
	hs       merkle.Hasher
	chunk    int
	workers  int
	progress func(Progress)
	domains  BinaryDomains
	gpu      *gpu.Device
	gpus     []*gpu.Device               // WithGPUs's, in column order
	lost     func(device int, err error) // WithDeviceLoss's notice
	// devBudget is WithDeviceBudget's; 0 for the default.
	devBudget int64
	// devTree is the field hash (hs) in the form of the GPU's kernels, nil
	// for a byte hash and for a field hash the GPU does not run (then
	// devTreeWhy says why).
	devTree    *gp2.TreeSpec
	devTreeWhy string
}

// WithBlowup sets the blowup, the ratio of codeword to trace length: 2, 4
// (the default), 8 or 16.
func WithBlowup(b int) Option {
	return func(c *config) error {
		switch b {
		case 2, 4, 8, 16:
			c.blowup = b
			return nil
		}
		return fmt.Errorf("prover: blowup %d not supported (want 2, 4, 8 or 16): %w", b, ErrConfig)
	}
}

// WithHash sets the Merkle hash; nil means the default, SHA-256 (with the
// default, digests are crypto/sha256's). Verify must be given the same
// constructor.
//
// The tree feeds the hash byte strings (the package documentation,
// "Commitment", says which): a leaf message is 1 + the row's bytes long, a
// node message 1 + 2·Size() bytes, whatever the hash's block size. So h must
// give a hash.Hash that takes any byte string: Write takes all of it without
// error, Sum appends Size() bytes, Size() is between 16 and 128, Reset
// starts over, and equal messages give equal digests on every instance.
// Byte hashes such as crypto/sha256, SHA-3 or Keccak-256 serve as they are.
// Hashes over field elements, such as gnark-crypto's Poseidon2 and MiMC
// Merkle–Damgård hashers, take only whole blocks of canonical elements:
// they need an adapter that packs bytes into elements (with the length, so
// that no two messages pack alike); see the example. For a tree over the
// elements themselves (Poseidon2, as Plonky3 commits), see WithMerkle.
//
// New calls h and probes the hash with messages of the tree's shapes (a node,
// and a leaf of one column; Commit and Verify probe a leaf of each new row
// width the first time): a hash that refuses them, truncates them, gives
// every message one digest, or differs between instances or after Reset is
// refused with an error wrapping ErrConfig and ErrHash. After that every use
// is checked; a fault, or a panic in the hash on any goroutine, makes the
// call that used it return an error wrapping ErrHash, with no root, opening
// or verdict.
func WithHash(h func() hash.Hash) Option {
	return func(c *config) error {
		hs, err := merkle.NewHasher(h)
		if err != nil {
			return fmt.Errorf("prover: WithHash: %w (%w)", err, ErrConfig)
		}
		c.hash, c.hs = h, hs
		return nil
	}
}

// WithMerkle sets how the commitment's tree hashes, as one merkle.Hasher:
// a byte hash (merkle.NewHasher; the zero Hasher is the default SHA-256,
// and WithHash(h) is WithMerkle of merkle.NewHasher(h)), or a field hash
// over the trace's own elements (merkle.Poseidon2, merkle.FieldHasher),
// whose leaves are a sponge over the row and whose nodes compress two
// digests, with no byte packing: with merkle.Poseidon2 and the Plonky3
// preset, the root of Plonky3's MerkleTreeMmcs over the LDE. A field hash
// serves traces of its own field only: New refuses another (GF(2^64),
// BN254 or another 31-bit field) with an error wrapping ErrConfig and
// merkle.ErrField.
//
// Commit, CommitInto, CommitLDE, Open and OpenMulti use it; the verifier
// gives the same Hasher to VerifyWith or VerifyMultiWith (or to the
// openings' VerifyWith). On a GPU backend, a Poseidon2 field hash
// (merkle.Poseidon2, or merkle.FieldHasher of permutations of the widths
// the GPU has: 16 and 24 for BabyBear and KoalaBear, 8 and 12 for
// Goldilocks, at most 8 full and 32 partial rounds, 32-byte digests) hashes
// the rows on the device as SHA-256 does (gpu/rowhash.NewField): Commit
// keeps the LDE and the tree there, CommitInto and CommitLDE bring the
// digests back, WithGPUs spreads it over the devices. The tree of any other
// hash is built on the host from the LDE in host memory, as with WithHash
// (Commitment.Resident says so, and why). Either way it is the CPU
// backend's tree, root for root.
func WithMerkle(hs merkle.Hasher) Option {
	return func(c *config) error {
		c.hash, c.hs = nil, hs
		return nil
	}
}

// WithChunkColumns sets how many columns are transformed at a time (default
// 16): a Source that is not a Trace is read this many columns at a time, so
// the encoder's scratch is n columns of the trace.
func WithChunkColumns(n int) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("prover: chunk of %d columns: %w", n, ErrConfig)
		}
		c.chunk = n
		return nil
	}
}

// WithWorkers sets how many goroutines hash rows (default GOMAXPROCS).
func WithWorkers(n int) Option {
	return func(c *config) error {
		if n <= 0 {
			return fmt.Errorf("prover: %d workers: %w", n, ErrConfig)
		}
		c.workers = n
		return nil
	}
}

// WithProgress sets a function that receives progress reports during Encode
// and Commit: a few hundred per call at most, one at a time, from the
// encoder's goroutines. It must return quickly. A panic in it on one of the
// encoder's goroutines is recovered and returned by the call as an error
// wrapping ErrConfig.
func WithProgress(f func(Progress)) Option {
	return func(c *config) error {
		c.progress = f
		return nil
	}
}

func newConfig(opts []Option) (config, error) {
	c := config{blowup: 4, chunk: 16, workers: runtime.GOMAXPROCS(0)}
	c.hs, _ = merkle.NewHasher(nil)
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(&c); err != nil {
			return config{}, err
		}
	}
	return c, nil
}

// Timings are the durations of a Commit's phases.
type Timings struct {
	Encode time.Duration // reading the source and the LDE of every column
	Commit time.Duration // hashing the rows and building the tree
}

// ldeFunc computes the LDE of a chunk of columns: dst[j] (blowup·2^logRows
// elements) from msgs[j] (2^logRows elements); msgs is not modified.
type ldeFunc[E Element] func(logRows int, dst, msgs [][]E) error

// core holds what every backend shares: configuration, chunking, streaming,
// the commitment. A backend supplies its batched LDE.
type core[E Element] struct {
	cfg    config
	name   string
	device string
	lde    ldeFunc[E]
	devLDE devLDEFunc[E] // GPU backends: lde with the rows hashed on the device

	devMu sync.Mutex   // held while a commitment uses dh
	dh    *devHash[E]  // the device hashing state of the last GPU commitment
	res   *resident[E] // GPU backends: commitments kept on the device
	close func() error
}

func (c *core[E]) Name() string   { return c.name }
func (c *core[E]) Field() Field   { return FieldOf[E]() }
func (c *core[E]) Device() string { return c.device }
func (c *core[E]) Blowup() int    { return c.cfg.blowup }

func (c *core[E]) Close() error {
	c.devMu.Lock()
	if c.dh != nil {
		c.dh.close()
		c.dh = nil
	}
	c.devMu.Unlock()
	if c.res != nil {
		c.res.close()
	}
	if c.close != nil {
		f := c.close
		c.close = nil
		return f()
	}
	return nil
}

func (c *core[E]) report(phase string, done, total int) {
	if c.cfg.progress != nil {
		c.cfg.progress(Progress{Phase: phase, Done: done, Total: total})
	}
}

func (c *core[E]) Encode(src Source[E]) ([][]E, error) {
	logRows, cols, err := c.shape(src)
	if err != nil {
		return nil, err
	}
	lde := newLDE[E](c.cfg.blowup<<logRows, cols)
	if err := c.encode(lde, src, logRows, cols); err != nil {
		return nil, err
	}
	return lde, nil
}

// newLDE allocates cols columns of n elements in one backing array.
func newLDE[E Element](n, cols int) [][]E {
	backing := make([]E, n*cols)
	hugepage.Advise(backing)
	lde := make([][]E, cols)
	for j := range lde {
		lde[j] = backing[j*n : (j+1)*n : (j+1)*n]
	}
	return lde
}

func (c *core[E]) EncodeInto(dst [][]E, src Source[E]) error {
	logRows, cols, err := c.checkInto("EncodeInto", dst, src)
	if err != nil {
		return err
	}
	return c.encode(dst, src, logRows, cols)
}

// checkInto checks src's shape and that dst has its LDE's shape.
func (c *core[E]) checkInto(op string, dst [][]E, src Source[E]) (logRows, cols int, err error) {
	logRows, cols, err = c.shape(src)
	if err != nil {
		return 0, 0, err
	}
	n := c.cfg.blowup << logRows
	if len(dst) != cols {
		return 0, 0, fmt.Errorf("prover: %s: %d destination columns for %d trace columns: %w", op, len(dst), cols, ErrShape)
	}
	for j := range dst {
		if len(dst[j]) != n {
			return 0, 0, fmt.Errorf("prover: %s: destination column %d has %d elements, want %d: %w", op, j, len(dst[j]), n, ErrShape)
		}
	}
	return logRows, cols, nil
}

// shape checks src's shape.
func (c *core[E]) shape(src Source[E]) (logRows, cols int, err error) {
	if src == nil {
		return 0, 0, fmt.Errorf("prover: nil trace source: %w", ErrShape)
	}
	logRows, cols, err = src.Shape()
	if err != nil {
		if _, ok := src.(Trace[E]); ok {
			return 0, 0, err // wraps ErrShape
		}
		return 0, 0, fmt.Errorf("prover: the source's shape: %w: %w", ErrSource, err)
	}
	if logRows < 0 || logRows > MaxLogRows || cols <= 0 {
		return 0, 0, fmt.Errorf("prover: source shape 2^%d rows × %d columns: %w", logRows, cols, ErrShape)
	}
	return logRows, cols, nil
}

// encode runs the backend's LDE chunk by chunk into lde.
func (c *core[E]) encode(lde [][]E, src Source[E], logRows, cols int) error {
	return c.encodeWith(lde, src, logRows, cols, nil)
}

// encodeWith is encode that also hands the LDE on the device to sink (not
// nil only for a GPU backend).
func (c *core[E]) encodeWith(lde [][]E, src Source[E], logRows, cols int, sink *devHash[E]) error {
	rows := 1 << logRows
	tr, inMemory := src.(Trace[E])
	var scratch [][]E
	chunk := min(c.cfg.chunk, cols)
	if !inMemory {
		sb := make([]E, chunk*rows)
		scratch = make([][]E, chunk)
		for j := range scratch {
			scratch[j] = sb[j*rows : (j+1)*rows : (j+1)*rows]
		}
	}
	c.report("encode", 0, cols)
	for first := 0; first < cols; first += chunk {
		m := min(chunk, cols-first)
		var msgs [][]E
		if inMemory {
			msgs = tr[first : first+m]
		} else {
			msgs = scratch[:m]
			if err := src.ReadColumns(first, msgs); err != nil {
				return fmt.Errorf("prover: reading columns %d..%d: %w: %w", first, first+m-1, ErrSource, err)
			}
		}
		var err error
		if sink != nil {
			err = c.devLDE(logRows, lde[first:first+m], msgs, sink)
		} else {
			err = c.lde(logRows, lde[first:first+m], msgs)
		}
		if err != nil {
			return err
		}
		c.report("encode", first+m, cols)
	}
	return nil
}

func (c *core[E]) Commit(src Source[E]) (*Commitment[E], error) {
	t0 := time.Now()
	logRows, cols, err := c.shape(src)
	if err != nil {
		return nil, err
	}
	why := ""
	if c.res != nil {
		if !c.devTreeOK() {
			why = "the tree of " + c.cfg.hs.String() + " is built on the CPU, from an LDE in host memory"
			if c.cfg.devTreeWhy != "" {
				why += " (" + c.cfg.devTreeWhy + ")"
			}
		} else {
			cm, reason, err := c.commitResident(src, logRows, cols, t0)
			if cm != nil || err != nil {
				return cm, err
			}
			why = reason
			c.report("fallback", 0, 0)
		}
	}
	cm, err := c.commitInto(newLDE[E](c.cfg.blowup<<logRows, cols), src, logRows, cols, t0)
	if cm != nil {
		cm.why = why
	}
	return cm, err
}

func (c *core[E]) CommitInto(dst [][]E, src Source[E]) (*Commitment[E], error) {
	t0 := time.Now()
	logRows, cols, err := c.checkInto("CommitInto", dst, src)
	if err != nil {
		return nil, err
	}
	return c.commitInto(dst, src, logRows, cols, t0)
}

// commitInto encodes src into lde and commits to it: on the device when it
// can, else the LDE and then the CPU's tree.
func (c *core[E]) commitInto(lde [][]E, src Source[E], logRows, cols int, t0 time.Time) (*Commitment[E], error) {
	if c.devTreeOK() {
		cm, err := c.commitDev(lde, src, logRows, cols, t0)
		if cm != nil || err != nil {
			return cm, err
		}
	}
	if err := c.encode(lde, src, logRows, cols); err != nil {
		return nil, err
	}
	t1 := time.Now()
	// The CPU's tree: the device, if any, has just lacked the memory.
	t, err := buildTree(lde, &c.cfg, c.commitProgress())
	if err != nil {
		return nil, err
	}
	return newHostCommitment(lde, t, Timings{Encode: t1.Sub(t0), Commit: time.Since(t1)}).withCode(&c.cfg), nil
}

// progressFunc receives the number of rows hashed so far; calls are
// serialized.
type progressFunc func(done, total int)

// buildTree builds the CPU's tree over lde with the configuration's hash
// and workers. A panic of the caller's progress function (WithProgress),
// on the tree's goroutines, is returned as an error wrapping ErrConfig,
// and no tree comes out.
func buildTree[E Element](lde [][]E, cfg *config, progress progressFunc) (*merkle.Tree[E], error) {
	var guard firstPanic
	pf := progress
	if pf != nil {
		pf = func(done, total int) {
			defer guard.recover()
			if !guard.failed() {
				progress(done, total)
			}
		}
	}
	t, err := merkle.Build(lde, cfg.hs, cfg.workers, pf)
	if perr := guard.err(); perr != nil {
		return nil, perr
	}
	return t, err
}

// firstPanic keeps the first panic of a caller's progress function, which
// may run on several goroutines (one at a time).
type firstPanic struct {
	mu sync.Mutex
	r  any
	ok bool
}

func (f *firstPanic) recover() {
	if r := recover(); r != nil {
		f.mu.Lock()
		if !f.ok {
			f.r, f.ok = r, true
		}
		f.mu.Unlock()
	}
}

func (f *firstPanic) failed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ok
}

func (f *firstPanic) err() error {
	if !f.failed() {
		return nil
	}
	return fmt.Errorf("prover: the WithProgress function panicked: %v: %w", f.r, ErrConfig)
}

// commitProgress is the progress callback of the commitment phase (nil
// without WithProgress).
func (c *core[E]) commitProgress() progressFunc {
	if c.cfg.progress == nil {
		return nil
	}
	return func(done, total int) { c.report("commit", done, total) }
}

func (c *core[E]) Prepare(logRows, cols int) error {
	if logRows < 0 || logRows > MaxLogRows || cols <= 0 {
		return fmt.Errorf("prover: Prepare for 2^%d rows × %d columns: %w", logRows, cols, ErrShape)
	}
	cm, err := c.Commit(zeroSource[E]{logRows, cols})
	if err != nil {
		return err
	}
	return cm.Close()
}

// zeroSource is a trace of zeros that Prepare commits to: read through the
// encoder's staging as a caller's Source is, without a trace in memory.
type zeroSource[E Element] struct{ logRows, cols int }

func (z zeroSource[E]) Shape() (int, int, error) { return z.logRows, z.cols, nil }

func (z zeroSource[E]) ReadColumns(first int, dst [][]E) error {
	for _, d := range dst {
		clear(d)
	}
	return nil
}

func (c *core[E]) CommitLDE(lde [][]E) (*Commitment[E], error) {
	if _, _, err := Trace[E](lde).Shape(); err != nil {
		return nil, err
	}
	t0 := time.Now()
	pf := c.commitProgress()
	var t *merkle.Tree[E]
	if c.devTreeOK() && len(lde[0]) > 1 { // one row: the root is the leaf, hashed here
		var err error
		if t, err = c.commitLDEDev(lde); err != nil {
			return nil, err
		}
		if t != nil && pf != nil {
			pf(len(lde[0]), len(lde[0]))
		}
	}
	if t == nil {
		var err error
		if t, err = buildTree(lde, &c.cfg, pf); err != nil {
			return nil, err
		}
	}
	return newHostCommitment(lde, t, Timings{Commit: time.Since(t0)}).withCode(&c.cfg), nil
}

// Commitment is a Merkle commitment to the rows of an LDE. It keeps the LDE
// to answer openings: in host memory (the CPU backends; CommitInto and
// CommitLDE on any backend), or, for Commit on a GPU backend with the
// default hash, in device memory with its tree (Resident says which), where
// Open and Combine read it and LDE copies it out on request. A commitment on
// the device holds that memory until Close; Close releases what any
// commitment holds, and its methods then return errors wrapping ErrClosed.
// Root, Rows, Columns and Resident stay valid after Close. A Commitment is
// safe for concurrent use.
type Commitment[E Element] struct {
	mu     sync.RWMutex    // guards lde, tree and closed
	lde    [][]E           // host LDE, nil on the device
	dev    deviceLDE[E]    // the LDE and tree on the device (one or several)
	tree   *merkle.Tree[E] // the tree over lde, nil on the device; guarded by mu
	root   []byte
	hs     merkle.Hasher // the tree's hash
	rows   int
	cols   int
	why    string // why a GPU backend's Commit is not on the device
	closed bool
	code   codeInfo // the code the LDE is a codeword of (Evaluate, the domain points)
	lam    lagrangeCache
	// Timings of the phases that made this commitment.
	Timings Timings
}

// newHostCommitment is a commitment to an LDE in host memory.
func newHostCommitment[E Element](lde [][]E, t *merkle.Tree[E], tm Timings) *Commitment[E] {
	return &Commitment[E]{lde: lde, tree: t, root: t.Root(), rows: len(lde[0]), cols: len(lde), Timings: tm}
}

// withCode records the code and the Merkle hash of the encoder whose
// configuration is cfg: the constructors of commitments call it.
func (c *Commitment[E]) withCode(cfg *config) *Commitment[E] {
	c.code = codeOf(cfg)
	c.hs = cfg.hs
	return c
}

// Root returns a copy of the Merkle root.
func (c *Commitment[E]) Root() []byte { return append([]byte(nil), c.root...) }

// Rows returns the number of committed rows (the codeword length).
func (c *Commitment[E]) Rows() int { return c.rows }

// Columns returns the number of committed columns.
func (c *Commitment[E]) Columns() int { return c.cols }

// Resident reports whether the LDE and its Merkle tree are kept in device
// memory. For a commitment that a GPU backend's Commit could not keep
// there, reason says why (the device budget, device memory, a hash the
// device does not run); it is empty otherwise.
func (c *Commitment[E]) Resident() (onDevice bool, reason string) {
	return c.dev != nil, c.why
}

// Close releases the commitment's LDE: device memory at once (returned to
// the encoder's budget, after the work queued on the device; the encoder
// keeps the buffers for its next commitment of the same shape, see
// WithDeviceBudget), host memory to the garbage collector. Closing twice
// is harmless.
func (c *Commitment[E]) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	c.lde, c.tree = nil, nil
	if c.dev != nil {
		return c.dev.free()
	}
	return nil
}

// hostLDE returns the host LDE, or nil for a commitment on the device, or
// ErrClosed.
func (c *Commitment[E]) hostLDE(op string) ([][]E, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return nil, fmt.Errorf("prover: %s: %w", op, ErrClosed)
	}
	return c.lde, nil
}

// hostTree returns the tree of a commitment in host memory, or nil for a
// commitment on the device, or ErrClosed.
func (c *Commitment[E]) hostTree(op string) (*merkle.Tree[E], error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.closed {
		return nil, fmt.Errorf("prover: %s: %w", op, ErrClosed)
	}
	return c.tree, nil
}

// LDE returns the committed codewords, column-major. For a commitment in
// host memory they are the commitment's own, which the caller must not
// modify; for one on the device, a new host copy (1 GiB for 2^22 rows of
// 32 GF(2^64) columns: prefer Open, Combine or LDEInto where they serve).
func (c *Commitment[E]) LDE() ([][]E, error) {
	lde, err := c.hostLDE("LDE")
	if err != nil || lde != nil {
		return lde, err
	}
	out := newLDE[E](c.rows, c.cols)
	if err := c.dev.copyOut(out); err != nil {
		return nil, err
	}
	return out, nil
}

// LDEInto copies the committed codewords into dst: Columns() columns of
// Rows() elements.
func (c *Commitment[E]) LDEInto(dst [][]E) error {
	if len(dst) != c.cols {
		return fmt.Errorf("prover: LDEInto: %d columns for %d: %w", len(dst), c.cols, ErrShape)
	}
	for j := range dst {
		if len(dst[j]) != c.rows {
			return fmt.Errorf("prover: LDEInto: column %d has %d elements, want %d: %w", j, len(dst[j]), c.rows, ErrShape)
		}
	}
	lde, err := c.hostLDE("LDEInto")
	if err != nil {
		return err
	}
	if lde == nil {
		return c.dev.copyOut(dst)
	}
	parallelFor(len(dst), func(j int) { copy(dst[j], lde[j]) })
	return nil
}

// DeviceLDE returns the LDE of a commitment kept on the device: Columns()
// columns of Rows() elements end to end in one device buffer, for the
// caller's own kernels. It stays the commitment's: the caller must not
// modify or free it, nor use it after Close. A commitment in host memory
// returns an error wrapping ErrUnavailable.
func (c *Commitment[E]) DeviceLDE() (*gpu.Buffer[E], error) {
	if _, err := c.hostLDE("DeviceLDE"); err != nil {
		return nil, err
	}
	if c.dev == nil {
		return nil, fmt.Errorf("prover: DeviceLDE: the commitment is in host memory: %w", ErrUnavailable)
	}
	return c.dev.view()
}

// Open returns the rows at the given indices and their authentication paths.
// An index outside 0..Rows()−1 is an error wrapping ErrIndex.
func (c *Commitment[E]) Open(indices []int) (*Opening[E], error) {
	n := c.Rows()
	for _, i := range indices {
		if i < 0 || i >= n {
			return nil, fmt.Errorf("prover: opening row %d of %d: %w", i, n, ErrIndex)
		}
	}
	t, err := c.hostTree("Open")
	if err != nil {
		return nil, err
	}
	if t == nil {
		return c.dev.open(c.hs, indices)
	}
	o, err := t.Open(indices)
	if err != nil {
		return nil, fmt.Errorf("prover: Open: %w", err)
	}
	return o, nil
}

// Combine returns the random linear combination of the committed columns
// with the coefficients alpha (one per column): element i is
// Σ_j alpha[j]·LDE()[j][i], in the field of the trace (GF(2^64)
// coefficients for the binary field). Every backend gives the same elements;
// a commitment kept on the device combines there and copies only the
// result. A wrong number of coefficients is an error wrapping ErrShape.
//
// Coefficients drawn from the trace field give a combination that is sound
// to about log2|F| − log2(#columns) bits (Schwartz–Zippel: two different
// sets of columns combine alike for at most #columns/|F| of the
// coefficients): some 250 bits for BN254, 64 − log2(#columns) for GF(2^64)
// and Goldilocks, but only 31 − log2(#columns) for BabyBear and KoalaBear,
// too few for a proof. A prover draws them from the extension instead
// (Ext, DrawExt) and calls CombineExt or CombinePowers.
func (c *Commitment[E]) Combine(alpha []E) ([]E, error) {
	dst := make([]E, c.Rows())
	if err := c.CombineInto(dst, alpha); err != nil {
		return nil, err
	}
	return dst, nil
}

// CombineInto is Combine into dst, which must hold Rows() elements.
func (c *Commitment[E]) CombineInto(dst, alpha []E) error {
	if len(alpha) != c.cols {
		return fmt.Errorf("prover: Combine: %d coefficients for %d columns: %w", len(alpha), c.cols, ErrShape)
	}
	if len(dst) != c.rows {
		return fmt.Errorf("prover: Combine: destination of %d elements for %d rows: %w", len(dst), c.rows, ErrShape)
	}
	lde, err := c.hostLDE("Combine")
	if err != nil {
		return err
	}
	if lde != nil {
		return combineInto(dst, lde, alpha)
	}
	buf, err := c.dev.combine(nil, alpha)
	if err != nil {
		return err
	}
	defer buf.Free()
	if err := buf.Download(dst); err != nil {
		return fmt.Errorf("prover: Combine: %w", err)
	}
	return nil
}

// CombineDevice is Combine for a commitment kept on the device, with the
// result left there: a new buffer of Rows() elements that the caller owns
// and frees. A commitment in host memory returns an error wrapping
// ErrUnavailable.
func (c *Commitment[E]) CombineDevice(alpha []E) (*gpu.Buffer[E], error) {
	if len(alpha) != c.cols {
		return nil, fmt.Errorf("prover: CombineDevice: %d coefficients for %d columns: %w", len(alpha), c.cols, ErrShape)
	}
	if _, err := c.hostLDE("CombineDevice"); err != nil {
		return nil, err
	}
	if c.dev == nil {
		return nil, fmt.Errorf("prover: CombineDevice: the commitment is in host memory: %w", ErrUnavailable)
	}
	return c.dev.combine(nil, alpha)
}

// CombineDeviceInto is CombineDevice into dst, a device buffer of Rows()
// elements on the commitment's device, for a prover that reuses its
// buffers. dst must not overlap the commitment's LDE.
func (c *Commitment[E]) CombineDeviceInto(dst *gpu.Buffer[E], alpha []E) error {
	if len(alpha) != c.cols {
		return fmt.Errorf("prover: CombineDeviceInto: %d coefficients for %d columns: %w", len(alpha), c.cols, ErrShape)
	}
	if dst == nil {
		return fmt.Errorf("prover: CombineDeviceInto: nil buffer: %w", ErrShape)
	}
	if _, err := c.hostLDE("CombineDeviceInto"); err != nil {
		return err
	}
	if c.dev == nil {
		return fmt.Errorf("prover: CombineDeviceInto: the commitment is in host memory: %w", ErrUnavailable)
	}
	_, err := c.dev.combine(dst, alpha)
	return err
}

// Opening is a set of opened rows with their authentication paths
// (package merkle's; its Verify is the function Verify).
type Opening[E Element] = merkle.Opening[E]

// Verify checks that rows[k] is row indices[k] of a commitment with the given
// root over numRows rows (a power of two), using paths[k], with the hash h
// (nil: SHA-256). It needs no encoder. It returns nil when every row checks
// out and there is at least one; an error wrapping ErrVerify when one does
// not (naming the first) or when there is none to check; an error wrapping
// ErrIndex or ErrShape for indices out of range or mismatched lengths; and an
// error wrapping ErrHash when h fails (see WithHash), never nil then. It does
// not modify its arguments. It is merkle.Verify.
func Verify[E Element](root []byte, numRows int, indices []int, rows [][]E, paths [][][]byte, h func() hash.Hash) error {
	return merkle.Verify(root, numRows, indices, rows, paths, h)
}

// VerifyWith is Verify with the merkle.Hasher of the encoder (WithMerkle):
// a byte hash or a field hash. It is merkle.VerifyWith: its errors are
// Verify's, and one wrapping merkle.ErrField for a field hash over another
// field. A field hash's rows are not tagged and its sponge does not pad:
// the verifier checks that the rows have the commitment's number of
// columns.
func VerifyWith[E Element](root []byte, numRows int, indices []int, rows [][]E, paths [][][]byte, hs merkle.Hasher) error {
	return merkle.VerifyWith(root, numRows, indices, rows, paths, hs)
}
