package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// ms formats a duration in milliseconds with three significant digits (at
// least one decimal below 100 ms).
func ms(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	case v >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3f", v)
}

// cell is a time's median and spread: "12.3 [11.9–13.0]".
func cell(s spread) string {
	return fmt.Sprintf("%s [%s–%s]", ms(s.Median), ms(s.Min), ms(s.Max))
}

func mib(b uint64) string { return fmt.Sprintf("%.1f", float64(b)/(1<<20)) }

func writeTable(w io.Writer, rows []row, o options) {
	const timeW = 20
	fmt.Fprintf(w, "%-16s %3s %4s  %-*s %-*s %-*s %-*s %8s %8s %8s\n", "row", "ext", "bits",
		timeW, "commit", timeW, "open", timeW, "prove", timeW, "verify", "proof B", "heap MiB", "dev MiB")
	var below []string
	for i := range rows {
		r := &rows[i]
		dev := "n/a"
		if r.devicePeak >= 0 {
			dev = mib(uint64(r.devicePeak))
		}
		fmt.Fprintf(w, "%-16s %3d %4d  %-*s %-*s %-*s %-*s %8d %8s %8s\n", r.name, r.degree, r.bits,
			timeW, cell(r.commitS()), timeW, cell(r.openS()), timeW, cell(r.proveS()), timeW, cell(r.verifyS()),
			r.proofBytes, mib(r.heapPeak), dev)
		if r.bits != o.bits {
			below = append(below, fmt.Sprintf("%s: %d bits, not the target %d (FRI %.1f, algebraic errors 2^-%.1f)", r.name, r.bits, o.bits, r.friBits, r.algBits))
		}
	}
	fmt.Fprintln(w)
	for i := range rows {
		r := &rows[i]
		note := ""
		if r.devicePeak < 0 && r.device == "gpu" {
			note = "; device memory " + r.devNote
		}
		fmt.Fprintf(w, "%-16s %s, %d trace rows, challenges of %.1f bits%s\n", r.name, r.where, r.rows, r.field.ExtBits(), note)
	}
	fmt.Fprintf(w, "heap MiB: the largest Go heap during a proof above the heap before it (%s, sampled every ms); dev MiB: the device's used memory during a proof above what was used before the row's prover (cuMemGetInfo)\n", heapMetric)
	for _, s := range below {
		fmt.Fprintln(w, "security:", s)
	}
}

// pick is one closing recommendation: the row with the least value of a
// measure, and the runner-up.
type pick struct {
	what   string // "fastest prover", …
	best   *row
	next   *row // nil with one row
	value  func(*row) float64
	format func(*row) string
	// overlap: the runner-up's spread reaches the best one's (times only);
	// more runs may swap them.
	overlap bool
}

// recommend returns the picks over rows: the least median prove time, the
// fewest proof bytes, the least median verify time. Ties go to the earlier
// row.
func recommend(rows []row) []pick {
	picks := []pick{
		{what: "fastest prover",
			value:  func(r *row) float64 { return float64(r.proveS().Median) },
			format: func(r *row) string { return ms(r.proveS().Median) + " ms" }},
		{what: "smallest proof",
			value:  func(r *row) float64 { return float64(r.proofBytes) },
			format: func(r *row) string { return fmt.Sprintf("%d bytes", r.proofBytes) }},
		{what: "fastest verifier",
			value:  func(r *row) float64 { return float64(r.verifyS().Median) },
			format: func(r *row) string { return ms(r.verifyS().Median) + " ms" }},
	}
	spreads := map[string]func(*row) spread{"fastest prover": (*row).proveS, "fastest verifier": (*row).verifyS}
	for i := range picks {
		p := &picks[i]
		for j := range rows {
			r := &rows[j]
			switch {
			case p.best == nil || p.value(r) < p.value(p.best):
				p.best, p.next = r, p.best
			case p.next == nil || p.value(r) < p.value(p.next):
				p.next = r
			}
		}
		if s, ok := spreads[p.what]; ok && p.next != nil {
			p.overlap = s(p.next).Min <= s(p.best).Max
		}
	}
	return picks
}

func writeRecommendation(w io.Writer, picks []pick, o options) {
	fmt.Fprintf(w, "For 2^%d rows at %d bits (blowup %d) on this machine:\n", o.logRows, o.bits, 1<<o.logBlowup)
	for _, p := range picks {
		var b strings.Builder
		fmt.Fprintf(&b, "  %-17s %s, %s", p.what+":", p.best.name, p.format(p.best))
		if p.next != nil {
			fmt.Fprintf(&b, " (next: %s, %s, %s", p.next.name, p.format(p.next), margin(p.value(p.best), p.value(p.next)))
			if p.overlap {
				fmt.Fprintf(&b, "; the spreads of %d runs overlap", o.runs)
			}
			b.WriteString(")")
		}
		fmt.Fprintln(w, b.String())
	}
}

// margin says how much more next is than best: "+2.4%" under 10%, "1.35×"
// above.
func margin(best, next float64) string {
	switch {
	case best <= 0:
		return "no ratio"
	case next/best < 1.1:
		return fmt.Sprintf("+%.1f%%", 100*(next-best)/best)
	}
	return fmt.Sprintf("%.2f×", next/best)
}
