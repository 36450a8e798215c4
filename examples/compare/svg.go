package main

import (
	"fmt"
	"html"
	"math"
	"strings"
	"time"
)

// panel is one column of the chart: a measure of every row.
type panel struct {
	title string
	color string
	// value returns the row's median and spread; a measure without a
	// spread (the proof's bytes) returns the value three times.
	value func(*row) (med, lo, hi float64)
	unit  string
}

func timePanel(title, color string, s func(*row) spread) panel {
	return panel{title: title, color: color, unit: "ms", value: func(r *row) (float64, float64, float64) {
		v := s(r)
		f := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
		return f(v.Median), f(v.Min), f(v.Max)
	}}
}

// scale maps a panel's values to [0, width]: linear from 0, or logarithmic
// (over whole powers of ten) when the values span more than 20×.
type scale struct {
	log    bool
	lo, hi float64
	width  float64
}

func newScale(vals []float64, width float64) scale {
	minV, maxV := math.Inf(1), 0.0
	for _, v := range vals {
		if v > 0 {
			minV, maxV = min(minV, v), max(maxV, v)
		}
	}
	if maxV == 0 {
		return scale{lo: 0, hi: 1, width: width}
	}
	if maxV/minV > 20 {
		return scale{log: true, lo: math.Pow(10, math.Floor(math.Log10(minV))), hi: math.Pow(10, math.Ceil(math.Log10(maxV))), width: width}
	}
	return scale{lo: 0, hi: niceCeil(maxV), width: width}
}

// niceCeil returns the least of 1, 2, 5 times a power of ten at or above v.
func niceCeil(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func (s scale) x(v float64) float64 {
	if s.log {
		v = max(v, s.lo)
		return s.width * (math.Log10(v) - math.Log10(s.lo)) / (math.Log10(s.hi) - math.Log10(s.lo))
	}
	return s.width * min(max(v, 0), s.hi) / s.hi
}

// ticks returns the axis' labelled values.
func (s scale) ticks() []float64 {
	var t []float64
	if s.log {
		for v := s.lo; v <= s.hi*1.0001; v *= 10 {
			t = append(t, v)
		}
		return t
	}
	for i := range 5 {
		t = append(t, s.hi*float64(i)/4)
	}
	return t
}

// chart draws the rows as one bar per row in each of five panels — commit,
// open, prove and verify times (the bar the median, the whisker the spread
// min–max over the runs) and the proof's bytes — each panel on its own
// scale, stated under it.
func chart(rows []row, o options) string {
	panels := []panel{
		timePanel("commit (ms)", "#4e79a7", (*row).commitS),
		timePanel("open (ms)", "#f28e2b", (*row).openS),
		timePanel("prove (ms)", "#e15759", (*row).proveS),
		timePanel("verify (ms)", "#76b7b2", (*row).verifyS),
		{title: "proof (KiB)", color: "#59a14f", unit: "KiB", value: func(r *row) (float64, float64, float64) {
			v := float64(r.proofBytes) / 1024
			return v, v, v
		}},
	}
	const (
		left, gap = 130, 30
		panelW    = 170
		rowH, top = 26, 84
	)
	width := left + len(panels)*(panelW+gap) + 10
	height := top + rowH*len(rows) + 56
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&b, `<text x="10" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", html.EscapeString("Whole STARK proofs: "+shape(o)))
	fmt.Fprintf(&b, `<text x="10" y="42">%s</text>`+"\n", html.EscapeString(fmt.Sprintf(
		"bars: medians of %d runs; whiskers: min–max; shorter is better; each panel on its own scale", o.runs)))
	for i := range rows {
		y := top + i*rowH
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", left-8, y+14, html.EscapeString(rows[i].name))
	}
	for p, pn := range panels {
		x0 := float64(left + p*(panelW+gap))
		var vals []float64
		for i := range rows {
			_, lo, hi := pn.value(&rows[i])
			vals = append(vals, lo, hi)
		}
		sc := newScale(vals, panelW)
		title := pn.title
		if sc.log {
			title += ", log scale"
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-weight="bold">%s</text>`+"\n", x0, top-10, html.EscapeString(title))
		for i := range rows {
			r := &rows[i]
			y := float64(top + i*rowH)
			med, lo, hi := pn.value(r)
			fmt.Fprintf(&b, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="18" fill="%s"><title>%s</title></rect>`+"\n",
				x0, y, sc.x(med), pn.color, html.EscapeString(fmt.Sprintf("%s %s: %s", r.name, pn.title, label(med, lo, hi, pn.unit))))
			if pn.unit == "ms" {
				fmt.Fprintf(&b, `<line class="spread" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", x0+sc.x(lo), y+9, x0+sc.x(hi), y+9)
				for _, v := range []float64{lo, hi} {
					fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", x0+sc.x(v), y+4, x0+sc.x(v), y+14)
				}
			}
		}
		ay := top + rowH*len(rows) + 2
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black"/>`+"\n", x0, ay, x0+panelW, ay)
		for _, t := range sc.ticks() {
			tx := x0 + sc.x(t)
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black"/>`+"\n", tx, ay, tx, ay+4)
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle" font-size="10">%g</text>`+"\n", tx, ay+16, t)
		}
	}
	b.WriteString("</svg>\n")
	return b.String()
}

func label(med, lo, hi float64, unit string) string {
	if lo == hi {
		return fmt.Sprintf("%.1f %s", med, unit)
	}
	return fmt.Sprintf("%.3g %s [%.3g–%.3g]", med, unit, lo, hi)
}
