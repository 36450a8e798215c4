// Package transcript is the Fiat–Shamir transcript of gfpoly's proofs: the
// prover and the verifier absorb the same messages (commitment roots,
// claimed values, field elements) and draw the same challenges from it
// (extension-field elements, query indices, bytes), and the prover's proof
// of work (grinding) is checked and absorbed the same way on both sides.
//
// A Transcript is a chain of hash outputs over one hash (any hash.Hash
// with an output of 16 to 64 bytes; crypto/sha256 by default, WithHash for
// another): every call replaces the state by the hash of a domain byte, the
// old state and an injective encoding of the call, so two different
// sequences of calls reach the same state only through a hash collision.
// It imports only the field packages, so the protocol packages and package
// prover above them can all use it.
//
// # Byte format
//
// H(x) is the configured hash of the byte string x, S its output size,
// ‖ concatenation, le64(n) the 8-byte little-endian encoding of n, u8(n)
// one byte. state is always S bytes.
//
//	New(label):         state = H(0x00 ‖ "gfpoly transcript" ‖ u8(Version = 1) ‖ le64(len(label)) ‖ label)
//	absorb(kind, tag, msg):
//	                    state = H(0x01 ‖ state ‖ u8(kind) ‖ le64(len(tag)) ‖ tag ‖ le64(len(msg)) ‖ msg)
//	draw(kind, tag, params):
//	                    header = u8(kind) ‖ le64(len(tag)) ‖ tag ‖ le64(len(params)) ‖ params
//	                    block i = H(0x02 ‖ state ‖ header ‖ le64(i)), i = 0, 1, 2, …
//	                    the draw reads the stream block 0 ‖ block 1 ‖ … from its start, as
//	                    many bytes as it needs (later blocks are computed only when read);
//	                    then state = H(0x03 ‖ state ‖ header)
//	grind(bits, nonce): the nonce is valid when H(0x04 ‖ state ‖ u8(bits) ‖ le64(nonce))
//	                    starts with bits zero bits (byte 0's most significant bit first);
//	                    then state = H(0x05 ‖ state ‖ u8(bits) ‖ le64(nonce))
//
// The tag is any string naming the message or the challenge (its bytes as
// Go holds them). The kinds and messages of the calls:
//
//	call                                kind   msg / params
//	AbsorbBytes(tag, b)                 0x00   b
//	AbsorbRoot(tag, root)               0x01   root
//	Absorb(tag, v…) gf64.Element        0x10   each element 8 bytes little-endian
//	  goldilocks.Element                0x11   each 8 bytes big-endian (gnark-crypto's Bytes, regular value)
//	  babybear.Element                  0x12   each 4 bytes big-endian
//	  koalabear.Element                 0x13   each 4 bytes big-endian
//	  fr.Element (BN254)                0x14   each 32 bytes big-endian
//	  gf128.Element                     0x20   each A0 ‖ A1, 8 bytes little-endian each
//	  goldilocks extensions.E2          0x21   each A0 ‖ A1, as goldilocks.Element
//	  babybear extensions.E4            0x22   each B0.A0 ‖ B0.A1 ‖ B1.A0 ‖ B1.A1, as babybear.Element
//	  koalabear extensions.E4           0x23   each B0.A0 ‖ B0.A1 ‖ B1.A0 ‖ B1.A1, as koalabear.Element
//	Draw[X](tag)                        X's kind above; params empty
//	DrawIndices(tag, n, count)          0x30   params le64(n) ‖ le64(count)
//	DrawBytes(tag, n)                   0x00   params le64(n)
//
// The elements of one Absorb call form one message, end to end; Absorb of
// no elements absorbs an empty message (with its kind and tag). A nil and
// an empty byte slice are the same message.
//
// # Sampling
//
// Draw[X] reads the coordinates of X over its trace field from the draw's
// stream one after another, in the type's order (E4: B0.A0, B0.A1, B1.A0,
// B1.A1; E2 and GF(2^128): A0, A1), each by rejection sampling of
// little-endian words, the format of prover.DrawExt (so a challenge-field
// draw is prover.DrawExt on the stream):
//
//	field        word       accepted when            value
//	BabyBear,    4 bytes    w & (2^31−1) < p          w & (2^31−1)
//	KoalaBear
//	Goldilocks   8 bytes    w < p                     w
//	BN254        32 bytes   w & (2^254−1) < r         w & (2^254−1)
//	GF(2^64)     8 bytes    always                    w (bit i: x^i)
//
// A rejected word is dropped and the next read; after 128 rejected words
// in a row for one coordinate the draw fails with ErrDraw (for a fit hash,
// probability below 2^−128). The value is the coordinate's canonical
// (regular) integer. A trace field's draw (Draw[babybear.Element], …) is one
// coordinate.
//
// DrawIndices draws each of its count indices from 8-byte little-endian
// words w of the stream: with k the bit length of n−1 (k = 0 for n = 1), the
// index is the first w & (2^k − 1) below n. A power of two n never rejects;
// any other rejects fewer than half the words; the indices are uniform, with
// no modulo bias. Duplicates are kept, in draw order: a caller that wants
// distinct positions removes them. DrawBytes returns the stream's first n
// bytes.
//
// # Grinding
//
// Grind(bits) returns the smallest nonce (0, 1, 2, …) that is valid for the
// current state and bits (0..32), searching in chunks of 4096 consecutive
// nonces over GOMAXPROCS goroutines; the answer does not depend on their
// number. The prover then absorbs it; CheckGrind(bits, nonce) is the
// verifier's side: it accepts any valid nonce (not only the smallest) and
// absorbs it the same way. Grinding costs about 2^bits hashes; a context
// (GrindContext) and a limit on the nonces tried (WithGrindLimit, 2^40 by
// default) bound it.
//
// # Known answers
//
// With SHA-256, New("gfpoly KAT") has the state
// 27bc75149018aacda8fed35a97a53db572d3981194cab7e19070b3fd49ed4f18. After
//
//	AbsorbRoot("trace root", the 32 bytes 0x00, 0x01, …, 0x1f)
//	AbsorbBytes("claim", "hello")
//	Absorb(tag "gf64", gf64.Element 1, 2, 3)
//	Absorb(tag "babybear", babybear.Element 5)
//
// the state is 318c15083a9cd8bc9cbdd9a2df4c28fe67c5cbdd6d15df154113f56393a6bab1,
// and then, in this order, each under the tag "alpha" (coordinates as
// canonical integers, GF(2^64) ones in hexadecimal):
//
//	Draw[gf128.Element]        0xef7827eb839909cc + 0xf1580d2925701465·y
//	Draw[goldilocks E2]        16582380096717179018, 3214980837159197580
//	Draw[babybear E4]          1265977768, 664058037, 1932410255, 706642597
//	Draw[koalabear E4]         827005630, 635467015, 1362440131, 1008477350
//	Draw[fr.Element]           8304884579479090951473610760167607946058841969468502969941600644408275291502
//	DrawIndices("queries", 1000, 4)   [18 242 540 812]
//	Grind(8)                   nonce 187
//
// leave the state a46681458f2367078bbf4a669102df64956e80949eb9c97bd66fa6d3bf4e63b7.
// TestKnownAnswers pins these values, and the tests compare the package
// with an implementation written from this documentation alone.
//
// # Errors, concurrency
//
// New checks the hash (its size, that Write takes every byte, that equal
// inputs give equal outputs across instances and after Reset, that two
// different inputs differ) and refuses an unfit one with ErrHash; a panic
// of the hash, then or later, becomes an error wrapping ErrHash, never a
// crash. After a later failure the transcript is spent: absorbs do nothing,
// draws and grinds return the error, and Err reports it. Arguments out of
// range (an index range n < 1, grinding bits above 32) wrap ErrParam and
// leave the state as it was.
//
// A Transcript is not safe for concurrent use; Clone gives an independent
// copy (for a prover that branches, or one transcript per goroutine).
// Nothing here is constant-time: a transcript hashes public data.
package transcript
