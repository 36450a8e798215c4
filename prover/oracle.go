package prover

import (
	"github.com/gfpoly/gfpoly/gpu"
	"github.com/gfpoly/gfpoly/prover/fri"
	"github.com/gfpoly/gfpoly/prover/merkle"
)

// Oracle returns c as the oracle that fri.Open reads, with challenges (and
// codeword values) in X, the challenge field of E (Ext's table): its
// evaluations are Evaluate's, its batching combination CombinePowers', its
// openings OpenMulti's, on whichever backend holds c. Call it with X named
// and E inferred:
//
//	proof, err := fri.Open(t, cfg, fri.Batch[babybear.Element, bbext.E4]{
//		Oracle: prover.Oracle[bbext.E4](c), Points: []bbext.E4{z, zNext}})
//
// An X of another field makes every call fail with ErrField. The oracle is
// a fri.DeviceOracle: on a commitment kept on the device, fri.Open runs
// the opening there.
func Oracle[X Ext, E Element](c *Commitment[E]) fri.Oracle[E, X] {
	return oracle[E, X]{c}
}

type oracle[E Element, X Ext] struct{ c *Commitment[E] }

func (o oracle[E, X]) Root() []byte { return o.c.Root() }
func (o oracle[E, X]) Rows() int    { return o.c.Rows() }
func (o oracle[E, X]) Columns() int { return o.c.Columns() }
func (o oracle[E, X]) CodewordPoints(dst []E, first int) error {
	return o.c.CodewordPoints(dst, first)
}
func (o oracle[E, X]) Evaluate(points []X) ([][]X, error) { return Evaluate(o.c, points) }
func (o oracle[E, X]) CombinePowers(alpha X) ([]X, error) { return CombinePowers(o.c, alpha) }
func (o oracle[E, X]) Device() *gpu.Device                { return deviceOf(o.c) }
func (o oracle[E, X]) CombinePowersDevice(dst *gpu.Buffer[X], alpha X) error {
	return CombineExtDeviceInto(o.c, dst, powers(alpha, o.c.cols))
}
func (o oracle[E, X]) ReserveDevice(bytes int64) (func(), error) {
	return o.c.reserveDevice(bytes)
}
func (o oracle[E, X]) OpenMulti(indices []int) (*merkle.MultiOpening[E], error) {
	return o.c.OpenMulti(indices)
}
