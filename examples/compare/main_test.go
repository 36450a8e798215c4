package main

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "c.svg")
	var out, errOut bytes.Buffer
	if err := run([]string{"-log-rows", "5", "-cols", "3", "-blowup", "2", "-svg", svg}, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errOut.String())
	}
	for _, name := range []string{"gf64/cpu", "goldilocks/cpu", "babybear/cpu", "koalabear/cpu", "bn254/cpu"} {
		if !strings.Contains(out.String(), "\n"+name+" ") {
			t.Errorf("no row for %s in\n%s", name, out.String())
		}
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	rects := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("chart is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "rect" {
			rects++
		}
	}
	if rects < 3+2*5 { // background, legend, two bars per backend
		t.Errorf("%d rects in the chart, want at least %d", rects, 3+2*5)
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-blowup", "5"}, {"-log-rows", "30"}, {"-cols", "0"}, {"-fields", "gf2"}, {"-device", "tpu"}, {"x"},
	} {
		var out bytes.Buffer
		if err := run(args, &out, &out); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

func TestOneField(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-log-rows", "3", "-cols", "2", "-fields", "gf64,koalabear", "-svg", "", "-device", "cpu", "-warmup=false"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "bn254") || !strings.Contains(out.String(), "koalabear/cpu") {
		t.Fatalf("wrong rows:\n%s", out.String())
	}
}
