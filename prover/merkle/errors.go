package merkle

import "errors"

// Errors callers can branch on (with errors.Is); every error the package
// returns wraps one of them and says what was wrong (but for the panic of
// a caller's progress function, Build's). Package prover returns
// the same values (prover.ErrShape is ErrShape, and so on), for its trace
// shapes and column ranges as well as for its trees: their texts name no
// package, the messages that wrap them do.
var (
	// ErrHash: the hash broke the hash.Hash contract or cannot serve the
	// tree's messages: its constructor returned nil or panicked, Write
	// failed or took fewer bytes than given, Sum appended other than Size()
	// bytes, it panicked, or its probe found it unfit (NewHasher). No root,
	// path or verdict comes out of a failed hash.
	ErrHash = errors.New("the Merkle hash failed")
	// ErrVerify: an opening that does not match the root.
	ErrVerify = errors.New("verification failed")
	// ErrIndex: an index outside the tree, or indices that do not increase
	// where they must.
	ErrIndex = errors.New("index out of range")
	// ErrShape: no columns, ragged columns, a number of rows that is not a
	// power of two, rows of different widths, counts of nodes or digests
	// other than the tree needs, an encoding that is not one.
	ErrShape = errors.New("bad shape")
	// ErrField: rows of one field given to a field hash over another
	// (a Poseidon2 Hasher over BabyBear and a KoalaBear or GF(2^64)
	// trace); see CheckField.
	ErrField = errors.New("the hash is over another field")
)
