package main

import (
	"fmt"
	"html"
	"strings"
)

// chart draws one horizontal bar per backend, encode and commit stacked, in
// milliseconds, with the throughput written after each bar.
func chart(rs []result, o options) string {
	const (
		left, right = 170, 190
		barW        = 560
		rowH, top   = 30, 70
	)
	var maxT float64
	for _, r := range rs {
		maxT = max(maxT, float64(r.total().Microseconds())/1000)
	}
	if maxT <= 0 {
		maxT = 1
	}
	scale := barW / maxT
	width := left + barW + right
	height := top + rowH*len(rs) + 60
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="10" y="22" font-size="15" font-weight="bold">Trace encoding: 2^%d rows × %d columns, blowup %d, SHA-256 Merkle commitment</text>`+"\n",
		o.logRows, o.cols, o.blowup)
	fmt.Fprintf(&b, `<rect x="10" y="36" width="12" height="12" fill="#4e79a7"/><text x="26" y="46">encode (LDE)</text>`+"\n")
	fmt.Fprintf(&b, `<rect x="120" y="36" width="12" height="12" fill="#f28e2b"/><text x="136" y="46">commit (Merkle)</text>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="46">time in ms (shorter is better); Melem/s = codeword elements per second</text>`+"\n", 260)
	for i, r := range rs {
		y := top + i*rowH
		e := float64(r.encode.Microseconds()) / 1000 * scale
		c := float64(r.commit.Microseconds()) / 1000 * scale
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", left-8, y+15, html.EscapeString(r.name))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="20" fill="#4e79a7"><title>encode %s</title></rect>`+"\n", left, y, e, ms(r.encode))
		fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="20" fill="#f28e2b"><title>commit %s</title></rect>`+"\n", float64(left)+e, y, c, ms(r.commit))
		s := r.total().Seconds()
		fmt.Fprintf(&b, `<text x="%.1f" y="%d">%s · %.1f Melem/s</text>`+"\n", float64(left)+e+c+6, y+15, ms(r.total()), float64(r.elements)/s/1e6)
	}
	// Axis.
	ay := top + rowH*len(rs) + 5
	fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, ay, left+barW, ay)
	for k := 0; k <= 4; k++ {
		x := float64(left) + float64(barW)*float64(k)/4
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black"/>`+"\n", x, ay, x, ay+4)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%.0f ms</text>`+"\n", x, ay+18, maxT*float64(k)/4)
	}
	b.WriteString("</svg>\n")
	return b.String()
}
