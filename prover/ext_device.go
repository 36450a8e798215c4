package prover

// The seam between the extension-field kernels (CombineExt, Evaluate) and
// commitments kept on the device.

// extColumns returns the committed columns in host memory for the
// extension-field kernels: the commitment's own LDE, or, for a commitment
// kept on the device, a host copy of it (copyOut, the path of LDE). That
// copy is a correct fallback, not a fast one (1 GiB for 2^22 rows of 32
// GF(2^64) columns); device kernels for CombineExt and Evaluate replace
// it. The caller must not modify the columns.
func (c *Commitment[E]) extColumns(op string) ([][]E, error) {
	lde, err := c.hostLDE(op)
	if err != nil || lde != nil {
		return lde, err
	}
	out := newLDE[E](c.rows, c.cols)
	if err := c.dev.copyOut(out); err != nil {
		return nil, err
	}
	return out, nil
}
