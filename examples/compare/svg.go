package main

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// chart draws one horizontal bar per backend for encode + commit, on a
// logarithmic time axis (the backends span three orders of magnitude), each
// bar split between encode and commit in proportion to their times, with
// the throughput written after it.
func chart(rs []result, o options) string {
	const (
		left, right = 170, 190
		barW        = 560
		rowH, top   = 30, 70
	)
	minT, maxT := math.Inf(1), 0.0
	for _, r := range rs {
		t := max(float64(r.total().Microseconds())/1000, 0.001)
		minT, maxT = min(minT, t), max(maxT, t)
	}
	lo := math.Pow(10, math.Floor(math.Log10(minT)))
	if minT < 2*lo { // keep the shortest bar visible
		lo /= 10
	}
	hi := math.Pow(10, math.Ceil(math.Log10(maxT)))
	if hi <= lo {
		hi = lo * 10
	}
	x := func(ms float64) float64 {
		return barW * (math.Log10(max(ms, lo)) - math.Log10(lo)) / (math.Log10(hi) - math.Log10(lo))
	}
	width := left + barW + right
	height := top + rowH*len(rs) + 60
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="10" y="22" font-size="15" font-weight="bold">Trace encoding: 2^%d rows × %d columns, blowup %d, SHA-256 Merkle commitment</text>`+"\n",
		o.logRows, o.cols, o.blowup)
	fmt.Fprintf(&b, `<rect x="10" y="36" width="12" height="12" fill="#4e79a7"/><text x="26" y="46">encode (LDE)</text>`+"\n")
	fmt.Fprintf(&b, `<rect x="120" y="36" width="12" height="12" fill="#f28e2b"/><text x="136" y="46">commit (Merkle)</text>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="46">encode + commit, ms, log scale (shorter is better); bars split in proportion</text>`+"\n", 260)
	for i, r := range rs {
		y := top + i*rowH
		total := float64(r.total().Microseconds()) / 1000
		length := x(total)
		e := 0.0
		if total > 0 {
			e = length * float64(r.encode.Microseconds()) / 1000 / total
		}
		c := length - e
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", left-8, y+15, html.EscapeString(r.name))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="20" fill="#4e79a7"><title>encode %s</title></rect>`+"\n", left, y, e, ms(r.encode))
		fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="20" fill="#f28e2b"><title>commit %s</title></rect>`+"\n", float64(left)+e, y, c, ms(r.commit))
		s := r.total().Seconds()
		fmt.Fprintf(&b, `<text x="%.1f" y="%d">%s · %.1f Melem/s</text>`+"\n", float64(left)+length+6, y+15, ms(r.total()), float64(r.elements)/s/1e6)
	}
	// Axis: one tick per power of ten.
	ay := top + rowH*len(rs) + 5
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, ay, left+barW, ay)
	for t := lo; t <= hi*1.0001; t *= 10 {
		tx := float64(left) + x(t)
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black"/>`+"\n", tx, ay, tx, ay+4)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%g ms</text>`+"\n", tx, ay+18, t)
	}
	b.WriteString("</svg>\n")
	return b.String()
}
