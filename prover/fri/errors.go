package fri

import "errors"

// The sentinel errors of package fri. Every error the package returns wraps
// one of them (errors.Is), and its message starts with "fri:".
var (
	// ErrArity is wrapped when a folding arity is not 2, 4, 8 or 16, or is
	// larger than the codeword it folds.
	ErrArity = errors.New("fri: bad folding arity")
	// ErrLength is wrapped when a slice has the wrong length, or a codeword
	// length is not a power of two.
	ErrLength = errors.New("fri: wrong length")
	// ErrDomain is wrapped when an evaluation domain is unusable: a zero or
	// nil coset shift or subspace, a generator whose order is not the
	// codeword length, an index outside the domain.
	ErrDomain = errors.New("fri: bad evaluation domain")
	// ErrField is wrapped when a challenge type is not the challenge field
	// of the trace field (BabyBear with koalabear's E4, for example).
	ErrField = errors.New("fri: challenge of the wrong field")
	// ErrParams is wrapped by Params.Validate, Check and Preset for
	// parameters that are inconsistent, out of range, or not secure enough.
	ErrParams = errors.New("fri: bad parameters")
)

// The sentinels of the polynomial commitment (Open, Verify, the proof's
// encoding).
var (
	// ErrProof is wrapped by every rejection of Verify and UnmarshalBinary:
	// a proof that does not parse, does not fit the statement, or fails a
	// check; the message says which.
	ErrProof = errors.New("fri: proof rejected")
	// ErrPoint is wrapped when an opening point lies in a commitment's
	// evaluation domain, where the DEEP quotient is not defined.
	ErrPoint = errors.New("fri: opening point inside the evaluation domain")
	// ErrOracle is wrapped when what a commitment (an Oracle) returns is
	// inconsistent: wrong lengths, another domain, rows that do not match
	// its root, columns that are not a codeword, or a panic.
	ErrOracle = errors.New("fri: commitment oracle failed")
)
