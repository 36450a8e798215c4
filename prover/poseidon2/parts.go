package poseidon2

// Permutation returns the permutation the sponge runs.
func (s *Sponge[E]) Permutation() *Permutation[E] { return s.perm }

// Permutation returns the permutation the compression runs.
func (c *Compression[E]) Permutation() *Permutation[E] { return c.perm }

// Mode returns how the compression makes its digest (Truncate or
// FeedForward).
func (c *Compression[E]) Mode() Mode { return c.mode }
