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
