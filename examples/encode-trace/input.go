package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/field/babybear"
	"github.com/consensys/gnark-crypto/field/goldilocks"
	"github.com/consensys/gnark-crypto/field/koalabear"

	"github.com/gfpoly/gfpoly/field/gf64"
	"github.com/gfpoly/gfpoly/prover"
)

// Trace files hold uint64 values, in one of two formats:
//
//   - binary (.bin, or -format bin): little-endian uint64s, column-major:
//     all rows of column 0, then all rows of column 1, …; -cols says how
//     many columns there are, and the file size must be 8·rows·cols bytes.
//     The file is read a chunk of columns at a time, never whole.
//   - CSV (.csv, or -format csv): one trace row per line, its values
//     separated by commas, decimal or 0x-prefixed hexadecimal; blank lines
//     and lines starting with '#' are skipped; every row has the same number
//     of values, which is the number of columns.
//
// A value is the element's bits for GF(2^64) and the integer's value for a
// prime field, where it must be less than the modulus.

// The moduli of the small prime fields.
var (
	goldilocksQ = goldilocks.Modulus().Uint64()
	babybearQ   = babybear.Modulus().Uint64()
	koalabearQ  = koalabear.Modulus().Uint64()
)

// setUint64 sets e to v, or returns an error when v is not below the modulus.
func setUint64[E prover.Element](e *E, v uint64) error {
	switch p := any(e).(type) {
	case *gf64.Element:
		*p = gf64.Element(v)
	case *goldilocks.Element:
		if v >= goldilocksQ {
			return fmt.Errorf("value %d is not below the Goldilocks modulus", v)
		}
		p.SetUint64(v)
	case *babybear.Element:
		if v >= babybearQ {
			return fmt.Errorf("value %d is not below the BabyBear modulus", v)
		}
		p.SetUint64(v)
	case *koalabear.Element:
		if v >= koalabearQ {
			return fmt.Errorf("value %d is not below the KoalaBear modulus", v)
		}
		p.SetUint64(v)
	case *fr.Element:
		p.SetUint64(v) // every uint64 is below the BN254 modulus
	}
	return nil
}

// binarySource is a trace in the binary format, read a chunk of columns at
// a time with ReadAt.
type binarySource[E prover.Element] struct {
	f             *os.File
	name          string
	logRows, cols int
	buf           []byte
}

func openBinary[E prover.Element](name string, cols int) (*binarySource[E], error) {
	if cols <= 0 {
		return nil, fmt.Errorf("%s: -cols must be positive for a binary trace, got %d", name, cols)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	size := st.Size()
	if size == 0 || size%(8*int64(cols)) != 0 {
		f.Close()
		return nil, fmt.Errorf("%s: %d bytes is not 8 × rows × %d columns for any rows > 0", name, size, cols)
	}
	rows := size / (8 * int64(cols))
	if rows&(rows-1) != 0 || rows > 1<<prover.MaxLogRows {
		f.Close()
		return nil, fmt.Errorf("%s: %d rows (with %d columns) is not a power of two up to 2^%d", name, rows, cols, prover.MaxLogRows)
	}
	logRows := 0
	for int64(1)<<logRows < rows {
		logRows++
	}
	return &binarySource[E]{f: f, name: name, logRows: logRows, cols: cols}, nil
}

func (s *binarySource[E]) Shape() (int, int, error) { return s.logRows, s.cols, nil }

func (s *binarySource[E]) ReadColumns(first int, dst [][]E) error {
	rows := 1 << s.logRows
	if cap(s.buf) < 8*rows {
		s.buf = make([]byte, 8*rows)
	}
	buf := s.buf[:8*rows]
	for j := range dst {
		if len(dst[j]) != rows {
			return fmt.Errorf("%s: destination column of %d rows, want %d", s.name, len(dst[j]), rows)
		}
		if _, err := s.f.ReadAt(buf, int64(first+j)*int64(len(buf))); err != nil {
			return fmt.Errorf("%s: column %d: %w", s.name, first+j, err)
		}
		for i := range dst[j] {
			if err := setUint64(&dst[j][i], binary.LittleEndian.Uint64(buf[8*i:])); err != nil {
				return fmt.Errorf("%s: column %d row %d: %w", s.name, first+j, i, err)
			}
		}
	}
	return nil
}

func (s *binarySource[E]) Close() error { return s.f.Close() }

// readCSV reads a trace in the CSV format.
func readCSV[E prover.Element](r io.Reader, name string) (prover.Trace[E], error) {
	var t prover.Trace[E]
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	line := 0
	rows := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		fields := strings.Split(text, ",")
		if t == nil {
			t = make(prover.Trace[E], len(fields))
		}
		if len(fields) != len(t) {
			return nil, fmt.Errorf("%s:%d: %d values, the first row has %d", name, line, len(fields), len(t))
		}
		if rows >= 1<<prover.MaxLogRows {
			return nil, fmt.Errorf("%s:%d: more than 2^%d rows", name, line, prover.MaxLogRows)
		}
		for c, f := range fields {
			v, err := strconv.ParseUint(strings.TrimSpace(f), 0, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: column %d: %w", name, line, c, err)
			}
			var e E
			if err := setUint64(&e, v); err != nil {
				return nil, fmt.Errorf("%s:%d: column %d: %w", name, line, c, err)
			}
			t[c] = append(t[c], e)
		}
		rows++
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if t == nil {
		return nil, errors.New(name + ": no rows")
	}
	return t, nil
}
