// Command compare runs the same trace encoding — 2^log-rows rows × cols
// columns of random elements, LDE with the given blowup, then a SHA-256
// Merkle commitment to the rows — on every available backend: GF(2^64) and
// the prime fields Goldilocks, BabyBear, KoalaBear and BN254, on the CPU and,
// where this build has a GPU backend for the field and a GPU is present, on
// the GPU. It prints a table and, with -svg, writes the same results as an SVG
// chart.
//
//	go run ./examples/compare
//	go run ./examples/compare -log-rows 20 -cols 32 -blowup 4 -svg compare.svg
//
// Columns of the table:
//
//	encode     the LDE of every column (plans built in a warm-up run first)
//	commit     hashing the LDE rows and building the Merkle tree
//	total      encode + commit
//	Melem/s    codeword elements (rows·blowup·cols) per second of total
//	MB/s       codeword bytes per second of total (element size × Melem/s)
//	peak MiB   the largest Go heap growth during encode + commit over the
//	           heap before it (the LDE, the tree, scratch), sampled every ms
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "compare:", err)
		}
		os.Exit(2)
	}
}

type options struct {
	logRows, cols, blowup int
	fields                []prover.Field
	device                string
	svg                   string
	warmup                bool
}

// result is one backend's run.
type result struct {
	name, device   string
	field          prover.Field
	encode, commit time.Duration
	elements       int // codeword elements
	bytes          int // codeword bytes
	peak           uint64
	root           []byte
}

func (r result) total() time.Duration { return r.encode + r.commit }

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	fs.IntVar(&o.logRows, "log-rows", 16, "log2 of the number of trace rows (0..26)")
	fs.IntVar(&o.cols, "cols", 16, "number of columns")
	fs.IntVar(&o.blowup, "blowup", 4, "codeword length / trace length: 2, 4, 8 or 16")
	fields := fs.String("fields", "all", "comma-separated fields to run (gf64, goldilocks, babybear, koalabear, bn254) or all")
	fs.StringVar(&o.device, "device", "all", "cpu, gpu or all (every device that has a backend)")
	fs.StringVar(&o.svg, "svg", "", "write the chart to this file (default: no chart)")
	fs.BoolVar(&o.warmup, "warmup", true, "run each backend once before measuring (builds plans and domains)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.logRows < 0 || o.logRows > prover.MaxLogRows {
		return fmt.Errorf("-log-rows %d outside 0..%d", o.logRows, prover.MaxLogRows)
	}
	if o.cols <= 0 {
		return fmt.Errorf("-cols %d: need at least one column", o.cols)
	}
	if _, err := prover.New[gf64.Element](prover.WithBlowup(o.blowup)); err != nil {
		return err
	}
	if *fields == "all" {
		o.fields = prover.Fields
	} else {
		for _, s := range strings.Split(*fields, ",") {
			f, err := prover.ParseField(strings.TrimSpace(s))
			if err != nil {
				return err
			}
			o.fields = append(o.fields, f)
		}
	}
	switch o.device {
	case "cpu", "gpu", "all":
	default:
		return fmt.Errorf("-device %q: want cpu, gpu or all", o.device)
	}

	var dev *gpu.Device
	if o.device != "cpu" {
		d, err := gpu.Open()
		if err != nil {
			fmt.Fprintf(stdout, "GPU: none (%v)\n", err)
			if o.device == "gpu" {
				return err
			}
		} else {
			dev = d
			defer dev.Close()
			fmt.Fprintf(stdout, "GPU: %s\n", dev.Info().Name)
		}
	}
	fmt.Fprintf(stdout, "CPU: %d cores (GOMAXPROCS %d), %s/%s\n", runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(stdout, "work: 2^%d rows × %d columns, blowup %d → 2^%d × %d codeword, SHA-256 Merkle tree\n\n",
		o.logRows, o.cols, o.blowup, o.logRows+log2(o.blowup), o.cols)

	var results []result
	var skipped []string
	for _, f := range o.fields {
		var rs []result
		var sk []string
		var err error
		switch f {
		case prover.GF64:
			rs, sk, err = measure[gf64.Element](o, dev)
		case prover.Goldilocks:
			rs, sk, err = measure[goldilocks.Element](o, dev)
		case prover.BabyBear:
			rs, sk, err = measure[babybear.Element](o, dev)
		case prover.KoalaBear:
			rs, sk, err = measure[koalabear.Element](o, dev)
		case prover.BN254:
			rs, sk, err = measure[fr.Element](o, dev)
		}
		if err != nil {
			return fmt.Errorf("%v: %w", f, err)
		}
		results = append(results, rs...)
		skipped = append(skipped, sk...)
	}
	writeTable(stdout, results)
	for _, s := range skipped {
		fmt.Fprintln(stdout, "not run:", s)
	}
	if o.svg != "" && len(results) > 0 {
		if err := os.WriteFile(o.svg, []byte(chart(results, o)), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "chart: %s\n", o.svg)
	}
	return nil
}

// measure runs E's field on the CPU and, when there is a GPU, on the GPU.
// A backend that cannot run (no GPU kernels for the field, a field without a
// subgroup of the codeword's size) is reported in skipped, not as an error.
func measure[E prover.Element](o options, dev *gpu.Device) (results []result, skipped []string, err error) {
	type cand struct {
		device string
		opts   []prover.Option
	}
	var cands []cand
	base := []prover.Option{prover.WithBlowup(o.blowup)}
	if o.device != "gpu" {
		cands = append(cands, cand{"cpu", base})
	}
	if dev != nil {
		cands = append(cands, cand{"gpu", append(base[:1:1], prover.WithGPU(dev))})
	}
	tr, err := prover.RandomTrace[E](o.logRows, o.cols, 1)
	if err != nil {
		return nil, nil, err
	}
	for _, c := range cands {
		enc, err := prover.New[E](c.opts...)
		if errors.Is(err, prover.ErrUnavailable) {
			skipped = append(skipped, fmt.Sprintf("%v/%s: %v", prover.FieldOf[E](), c.device, err))
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		r, err := measureOne(enc, tr, o.warmup)
		enc.Close()
		if errors.Is(err, prover.ErrShape) {
			skipped = append(skipped, fmt.Sprintf("%s: %v", enc.Name(), err))
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		results = append(results, r)
	}
	return results, skipped, nil
}

func measureOne[E prover.Element](enc prover.Encoder[E], tr prover.Trace[E], warmup bool) (result, error) {
	if warmup {
		c, err := enc.Commit(tr)
		if err != nil {
			return result{}, err
		}
		if err := c.Close(); err != nil { // frees a GPU backend's device memory
			return result{}, err
		}
	}
	runtime.GC()
	base := heapBytes()
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			if h := heapBytes(); h > peak.Load() {
				peak.Store(h)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	})
	c, err := enc.Commit(tr)
	if c != nil {
		if h := heapBytes(); h > peak.Load() {
			peak.Store(h)
		}
	}
	close(stop)
	wg.Wait()
	if err != nil {
		return result{}, err
	}
	defer c.Close()
	f := prover.FieldOf[E]()
	n := c.Rows() * len(tr)
	p := peak.Load()
	if p < base {
		p = base
	}
	return result{
		name: enc.Name(), device: enc.Device(), field: f,
		encode: c.Timings.Encode, commit: c.Timings.Commit,
		elements: n, bytes: n * f.ElementBytes(), peak: p - base, root: c.Root(),
	}, nil
}

var heapSample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}

func heapBytes() uint64 {
	s := []metrics.Sample{heapSample[0]}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func writeTable(w io.Writer, rs []result) {
	fmt.Fprintf(w, "%-16s %-22s %10s %10s %10s %9s %9s %9s\n", "backend", "device", "encode", "commit", "total", "Melem/s", "MB/s", "peak MiB")
	for _, r := range rs {
		s := r.total().Seconds()
		fmt.Fprintf(w, "%-16s %-22s %10s %10s %10s %9.1f %9.0f %9.0f\n", r.name, r.device,
			ms(r.encode), ms(r.commit), ms(r.total()), float64(r.elements)/s/1e6, float64(r.bytes)/s/1e6, float64(r.peak)/(1<<20))
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func log2(n int) int {
	k := 0
	for n > 1 {
		n >>= 1
		k++
	}
	return k
}
