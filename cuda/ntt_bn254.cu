// BN254 on 32-bit limbs and its four-step NTT passes (see ntt_fields.cu;
// compiled after ntt_fourstep.cu, in the BN254 program only).

// The BN254 field again, on 8×32-bit limbs (the same bytes as fr.Element's
// 4×64-bit limbs): the GPU has no 64-bit integer multiplier, so a 64×64
// product costs several 32-bit multiply-adds; the PTX below works on 32-bit
// limbs with the carry flag (mad.lo.cc / madc.hi.cc), CIOS Montgomery with
// R = 2^256 as above. Each operation is one asm block, generated once (the
// carry flag never crosses a block), and checked by gpu/primentt/ptx_test.go,
// which interprets these blocks against math/big.

struct __align__(16) Fr8 {
    u32 l[8];
};

// BEGIN PTX bn254_mul
__device__ __forceinline__ void bn254x32_mul(u32 *r, const u32 *a, const u32 *b) {
    asm("{\n\t"
        ".reg .u32 t<10>, m, s<8>, bw;\n\t"
        ".reg .pred p;\n\t"
        "mov.u32 t0, 0;\n\t"
        "mov.u32 t1, 0;\n\t"
        "mov.u32 t2, 0;\n\t"
        "mov.u32 t3, 0;\n\t"
        "mov.u32 t4, 0;\n\t"
        "mov.u32 t5, 0;\n\t"
        "mov.u32 t6, 0;\n\t"
        "mov.u32 t7, 0;\n\t"
        "mov.u32 t8, 0;\n\t"
        "mov.u32 t9, 0;\n\t"
        "mad.lo.cc.u32 t0, %8, %16, t0;\n\t"
        "madc.hi.cc.u32 t1, %8, %16, t1;\n\t"
        "madc.lo.cc.u32 t2, %10, %16, t2;\n\t"
        "madc.hi.cc.u32 t3, %10, %16, t3;\n\t"
        "madc.lo.cc.u32 t4, %12, %16, t4;\n\t"
        "madc.hi.cc.u32 t5, %12, %16, t5;\n\t"
        "madc.lo.cc.u32 t6, %14, %16, t6;\n\t"
        "madc.hi.cc.u32 t7, %14, %16, t7;\n\t"
        "addc.cc.u32 t8, t8, 0;\n\t"
        "addc.u32 t9, t9, 0;\n\t"
        "mad.lo.cc.u32 t1, %9, %16, t1;\n\t"
        "madc.hi.cc.u32 t2, %9, %16, t2;\n\t"
        "madc.lo.cc.u32 t3, %11, %16, t3;\n\t"
        "madc.hi.cc.u32 t4, %11, %16, t4;\n\t"
        "madc.lo.cc.u32 t5, %13, %16, t5;\n\t"
        "madc.hi.cc.u32 t6, %13, %16, t6;\n\t"
        "madc.lo.cc.u32 t7, %15, %16, t7;\n\t"
        "madc.hi.cc.u32 t8, %15, %16, t8;\n\t"
        "addc.u32 t9, t9, 0;\n\t"
        "mul.lo.u32 m, t0, 4026531839;\n\t"
        "mad.lo.cc.u32 t0, m, 4026531841, t0;\n\t"
        "madc.hi.cc.u32 t1, m, 4026531841, t1;\n\t"
        "madc.lo.cc.u32 t2, m, 2042196113, t2;\n\t"
        "madc.hi.cc.u32 t3, m, 2042196113, t3;\n\t"
        "madc.lo.cc.u32 t4, m, 2172737629, t4;\n\t"
        "madc.hi.cc.u32 t5, m, 2172737629, t5;\n\t"
        "madc.lo.cc.u32 t6, m, 3778125865, t6;\n\t"
        "madc.hi.cc.u32 t7, m, 3778125865, t7;\n\t"
        "addc.cc.u32 t8, t8, 0;\n\t"
        "addc.u32 t9, t9, 0;\n\t"
        "mad.lo.cc.u32 t1, m, 1138881939, t1;\n\t"
        "madc.hi.cc.u32 t2, m, 1138881939, t2;\n\t"
        "madc.lo.cc.u32 t3, m, 674490440, t3;\n\t"
        "madc.hi.cc.u32 t4, m, 674490440, t4;\n\t"
        "madc.lo.cc.u32 t5, m, 3092268470, t5;\n\t"
        "madc.hi.cc.u32 t6, m, 3092268470, t6;\n\t"
        "madc.lo.cc.u32 t7, m, 811880050, t7;\n\t"
        "madc.hi.cc.u32 t8, m, 811880050, t8;\n\t"
        "addc.u32 t9, t9, 0;\n\t"
        "mov.u32 t0, 0;\n\t"
        "mad.lo.cc.u32 t1, %8, %17, t1;\n\t"
        "madc.hi.cc.u32 t2, %8, %17, t2;\n\t"
        "madc.lo.cc.u32 t3, %10, %17, t3;\n\t"
        "madc.hi.cc.u32 t4, %10, %17, t4;\n\t"
        "madc.lo.cc.u32 t5, %12, %17, t5;\n\t"
        "madc.hi.cc.u32 t6, %12, %17, t6;\n\t"
        "madc.lo.cc.u32 t7, %14, %17, t7;\n\t"
        "madc.hi.cc.u32 t8, %14, %17, t8;\n\t"
        "addc.cc.u32 t9, t9, 0;\n\t"
        "addc.u32 t0, t0, 0;\n\t"
        "mad.lo.cc.u32 t2, %9, %17, t2;\n\t"
        "madc.hi.cc.u32 t3, %9, %17, t3;\n\t"
        "madc.lo.cc.u32 t4, %11, %17, t4;\n\t"
        "madc.hi.cc.u32 t5, %11, %17, t5;\n\t"
        "madc.lo.cc.u32 t6, %13, %17, t6;\n\t"
        "madc.hi.cc.u32 t7, %13, %17, t7;\n\t"
        "madc.lo.cc.u32 t8, %15, %17, t8;\n\t"
        "madc.hi.cc.u32 t9, %15, %17, t9;\n\t"
        "addc.u32 t0, t0, 0;\n\t"
        "mul.lo.u32 m, t1, 4026531839;\n\t"
        "mad.lo.cc.u32 t1, m, 4026531841, t1;\n\t"
        "madc.hi.cc.u32 t2, m, 4026531841, t2;\n\t"
        "madc.lo.cc.u32 t3, m, 2042196113, t3;\n\t"
        "madc.hi.cc.u32 t4, m, 2042196113, t4;\n\t"
        "madc.lo.cc.u32 t5, m, 2172737629, t5;\n\t"
        "madc.hi.cc.u32 t6, m, 2172737629, t6;\n\t"
        "madc.lo.cc.u32 t7, m, 3778125865, t7;\n\t"
        "madc.hi.cc.u32 t8, m, 3778125865, t8;\n\t"
        "addc.cc.u32 t9, t9, 0;\n\t"
        "addc.u32 t0, t0, 0;\n\t"
        "mad.lo.cc.u32 t2, m, 1138881939, t2;\n\t"
        "madc.hi.cc.u32 t3, m, 1138881939, t3;\n\t"
        "madc.lo.cc.u32 t4, m, 674490440, t4;\n\t"
        "madc.hi.cc.u32 t5, m, 674490440, t5;\n\t"
        "madc.lo.cc.u32 t6, m, 3092268470, t6;\n\t"
        "madc.hi.cc.u32 t7, m, 3092268470, t7;\n\t"
        "madc.lo.cc.u32 t8, m, 811880050, t8;\n\t"
        "madc.hi.cc.u32 t9, m, 811880050, t9;\n\t"
        "addc.u32 t0, t0, 0;\n\t"
        "mov.u32 t1, 0;\n\t"
        "mad.lo.cc.u32 t2, %8, %18, t2;\n\t"
        "madc.hi.cc.u32 t3, %8, %18, t3;\n\t"
        "madc.lo.cc.u32 t4, %10, %18, t4;\n\t"
        "madc.hi.cc.u32 t5, %10, %18, t5;\n\t"
        "madc.lo.cc.u32 t6, %12, %18, t6;\n\t"
        "madc.hi.cc.u32 t7, %12, %18, t7;\n\t"
        "madc.lo.cc.u32 t8, %14, %18, t8;\n\t"
        "madc.hi.cc.u32 t9, %14, %18, t9;\n\t"
        "addc.cc.u32 t0, t0, 0;\n\t"
        "addc.u32 t1, t1, 0;\n\t"
        "mad.lo.cc.u32 t3, %9, %18, t3;\n\t"
        "madc.hi.cc.u32 t4, %9, %18, t4;\n\t"
        "madc.lo.cc.u32 t5, %11, %18, t5;\n\t"
        "madc.hi.cc.u32 t6, %11, %18, t6;\n\t"
        "madc.lo.cc.u32 t7, %13, %18, t7;\n\t"
        "madc.hi.cc.u32 t8, %13, %18, t8;\n\t"
        "madc.lo.cc.u32 t9, %15, %18, t9;\n\t"
        "madc.hi.cc.u32 t0, %15, %18, t0;\n\t"
        "addc.u32 t1, t1, 0;\n\t"
        "mul.lo.u32 m, t2, 4026531839;\n\t"
        "mad.lo.cc.u32 t2, m, 4026531841, t2;\n\t"
        "madc.hi.cc.u32 t3, m, 4026531841, t3;\n\t"
        "madc.lo.cc.u32 t4, m, 2042196113, t4;\n\t"
        "madc.hi.cc.u32 t5, m, 2042196113, t5;\n\t"
        "madc.lo.cc.u32 t6, m, 2172737629, t6;\n\t"
        "madc.hi.cc.u32 t7, m, 2172737629, t7;\n\t"
        "madc.lo.cc.u32 t8, m, 3778125865, t8;\n\t"
        "madc.hi.cc.u32 t9, m, 3778125865, t9;\n\t"
        "addc.cc.u32 t0, t0, 0;\n\t"
        "addc.u32 t1, t1, 0;\n\t"
        "mad.lo.cc.u32 t3, m, 1138881939, t3;\n\t"
        "madc.hi.cc.u32 t4, m, 1138881939, t4;\n\t"
        "madc.lo.cc.u32 t5, m, 674490440, t5;\n\t"
        "madc.hi.cc.u32 t6, m, 674490440, t6;\n\t"
        "madc.lo.cc.u32 t7, m, 3092268470, t7;\n\t"
        "madc.hi.cc.u32 t8, m, 3092268470, t8;\n\t"
        "madc.lo.cc.u32 t9, m, 811880050, t9;\n\t"
        "madc.hi.cc.u32 t0, m, 811880050, t0;\n\t"
        "addc.u32 t1, t1, 0;\n\t"
        "mov.u32 t2, 0;\n\t"
        "mad.lo.cc.u32 t3, %8, %19, t3;\n\t"
        "madc.hi.cc.u32 t4, %8, %19, t4;\n\t"
        "madc.lo.cc.u32 t5, %10, %19, t5;\n\t"
        "madc.hi.cc.u32 t6, %10, %19, t6;\n\t"
        "madc.lo.cc.u32 t7, %12, %19, t7;\n\t"
        "madc.hi.cc.u32 t8, %12, %19, t8;\n\t"
        "madc.lo.cc.u32 t9, %14, %19, t9;\n\t"
        "madc.hi.cc.u32 t0, %14, %19, t0;\n\t"
        "addc.cc.u32 t1, t1, 0;\n\t"
        "addc.u32 t2, t2, 0;\n\t"
        "mad.lo.cc.u32 t4, %9, %19, t4;\n\t"
        "madc.hi.cc.u32 t5, %9, %19, t5;\n\t"
        "madc.lo.cc.u32 t6, %11, %19, t6;\n\t"
        "madc.hi.cc.u32 t7, %11, %19, t7;\n\t"
        "madc.lo.cc.u32 t8, %13, %19, t8;\n\t"
        "madc.hi.cc.u32 t9, %13, %19, t9;\n\t"
        "madc.lo.cc.u32 t0, %15, %19, t0;\n\t"
        "madc.hi.cc.u32 t1, %15, %19, t1;\n\t"
        "addc.u32 t2, t2, 0;\n\t"
        "mul.lo.u32 m, t3, 4026531839;\n\t"
        "mad.lo.cc.u32 t3, m, 4026531841, t3;\n\t"
        "madc.hi.cc.u32 t4, m, 4026531841, t4;\n\t"
        "madc.lo.cc.u32 t5, m, 2042196113, t5;\n\t"
        "madc.hi.cc.u32 t6, m, 2042196113, t6;\n\t"
        "madc.lo.cc.u32 t7, m, 2172737629, t7;\n\t"
        "madc.hi.cc.u32 t8, m, 2172737629, t8;\n\t"
        "madc.lo.cc.u32 t9, m, 3778125865, t9;\n\t"
        "madc.hi.cc.u32 t0, m, 3778125865, t0;\n\t"
        "addc.cc.u32 t1, t1, 0;\n\t"
        "addc.u32 t2, t2, 0;\n\t"
        "mad.lo.cc.u32 t4, m, 1138881939, t4;\n\t"
        "madc.hi.cc.u32 t5, m, 1138881939, t5;\n\t"
        "madc.lo.cc.u32 t6, m, 674490440, t6;\n\t"
        "madc.hi.cc.u32 t7, m, 674490440, t7;\n\t"
        "madc.lo.cc.u32 t8, m, 3092268470, t8;\n\t"
        "madc.hi.cc.u32 t9, m, 3092268470, t9;\n\t"
        "madc.lo.cc.u32 t0, m, 811880050, t0;\n\t"
        "madc.hi.cc.u32 t1, m, 811880050, t1;\n\t"
        "addc.u32 t2, t2, 0;\n\t"
        "mov.u32 t3, 0;\n\t"
        "mad.lo.cc.u32 t4, %8, %20, t4;\n\t"
        "madc.hi.cc.u32 t5, %8, %20, t5;\n\t"
        "madc.lo.cc.u32 t6, %10, %20, t6;\n\t"
        "madc.hi.cc.u32 t7, %10, %20, t7;\n\t"
        "madc.lo.cc.u32 t8, %12, %20, t8;\n\t"
        "madc.hi.cc.u32 t9, %12, %20, t9;\n\t"
        "madc.lo.cc.u32 t0, %14, %20, t0;\n\t"
        "madc.hi.cc.u32 t1, %14, %20, t1;\n\t"
        "addc.cc.u32 t2, t2, 0;\n\t"
        "addc.u32 t3, t3, 0;\n\t"
        "mad.lo.cc.u32 t5, %9, %20, t5;\n\t"
        "madc.hi.cc.u32 t6, %9, %20, t6;\n\t"
        "madc.lo.cc.u32 t7, %11, %20, t7;\n\t"
        "madc.hi.cc.u32 t8, %11, %20, t8;\n\t"
        "madc.lo.cc.u32 t9, %13, %20, t9;\n\t"
        "madc.hi.cc.u32 t0, %13, %20, t0;\n\t"
        "madc.lo.cc.u32 t1, %15, %20, t1;\n\t"
        "madc.hi.cc.u32 t2, %15, %20, t2;\n\t"
        "addc.u32 t3, t3, 0;\n\t"
        "mul.lo.u32 m, t4, 4026531839;\n\t"
        "mad.lo.cc.u32 t4, m, 4026531841, t4;\n\t"
        "madc.hi.cc.u32 t5, m, 4026531841, t5;\n\t"
        "madc.lo.cc.u32 t6, m, 2042196113, t6;\n\t"
        "madc.hi.cc.u32 t7, m, 2042196113, t7;\n\t"
        "madc.lo.cc.u32 t8, m, 2172737629, t8;\n\t"
        "madc.hi.cc.u32 t9, m, 2172737629, t9;\n\t"
        "madc.lo.cc.u32 t0, m, 3778125865, t0;\n\t"
        "madc.hi.cc.u32 t1, m, 3778125865, t1;\n\t"
        "addc.cc.u32 t2, t2, 0;\n\t"
        "addc.u32 t3, t3, 0;\n\t"
        "mad.lo.cc.u32 t5, m, 1138881939, t5;\n\t"
        "madc.hi.cc.u32 t6, m, 1138881939, t6;\n\t"
        "madc.lo.cc.u32 t7, m, 674490440, t7;\n\t"
        "madc.hi.cc.u32 t8, m, 674490440, t8;\n\t"
        "madc.lo.cc.u32 t9, m, 3092268470, t9;\n\t"
        "madc.hi.cc.u32 t0, m, 3092268470, t0;\n\t"
        "madc.lo.cc.u32 t1, m, 811880050, t1;\n\t"
        "madc.hi.cc.u32 t2, m, 811880050, t2;\n\t"
        "addc.u32 t3, t3, 0;\n\t"
        "mov.u32 t4, 0;\n\t"
        "mad.lo.cc.u32 t5, %8, %21, t5;\n\t"
        "madc.hi.cc.u32 t6, %8, %21, t6;\n\t"
        "madc.lo.cc.u32 t7, %10, %21, t7;\n\t"
        "madc.hi.cc.u32 t8, %10, %21, t8;\n\t"
        "madc.lo.cc.u32 t9, %12, %21, t9;\n\t"
        "madc.hi.cc.u32 t0, %12, %21, t0;\n\t"
        "madc.lo.cc.u32 t1, %14, %21, t1;\n\t"
        "madc.hi.cc.u32 t2, %14, %21, t2;\n\t"
        "addc.cc.u32 t3, t3, 0;\n\t"
        "addc.u32 t4, t4, 0;\n\t"
        "mad.lo.cc.u32 t6, %9, %21, t6;\n\t"
        "madc.hi.cc.u32 t7, %9, %21, t7;\n\t"
        "madc.lo.cc.u32 t8, %11, %21, t8;\n\t"
        "madc.hi.cc.u32 t9, %11, %21, t9;\n\t"
        "madc.lo.cc.u32 t0, %13, %21, t0;\n\t"
        "madc.hi.cc.u32 t1, %13, %21, t1;\n\t"
        "madc.lo.cc.u32 t2, %15, %21, t2;\n\t"
        "madc.hi.cc.u32 t3, %15, %21, t3;\n\t"
        "addc.u32 t4, t4, 0;\n\t"
        "mul.lo.u32 m, t5, 4026531839;\n\t"
        "mad.lo.cc.u32 t5, m, 4026531841, t5;\n\t"
        "madc.hi.cc.u32 t6, m, 4026531841, t6;\n\t"
        "madc.lo.cc.u32 t7, m, 2042196113, t7;\n\t"
        "madc.hi.cc.u32 t8, m, 2042196113, t8;\n\t"
        "madc.lo.cc.u32 t9, m, 2172737629, t9;\n\t"
        "madc.hi.cc.u32 t0, m, 2172737629, t0;\n\t"
        "madc.lo.cc.u32 t1, m, 3778125865, t1;\n\t"
        "madc.hi.cc.u32 t2, m, 3778125865, t2;\n\t"
        "addc.cc.u32 t3, t3, 0;\n\t"
        "addc.u32 t4, t4, 0;\n\t"
        "mad.lo.cc.u32 t6, m, 1138881939, t6;\n\t"
        "madc.hi.cc.u32 t7, m, 1138881939, t7;\n\t"
        "madc.lo.cc.u32 t8, m, 674490440, t8;\n\t"
        "madc.hi.cc.u32 t9, m, 674490440, t9;\n\t"
        "madc.lo.cc.u32 t0, m, 3092268470, t0;\n\t"
        "madc.hi.cc.u32 t1, m, 3092268470, t1;\n\t"
        "madc.lo.cc.u32 t2, m, 811880050, t2;\n\t"
        "madc.hi.cc.u32 t3, m, 811880050, t3;\n\t"
        "addc.u32 t4, t4, 0;\n\t"
        "mov.u32 t5, 0;\n\t"
        "mad.lo.cc.u32 t6, %8, %22, t6;\n\t"
        "madc.hi.cc.u32 t7, %8, %22, t7;\n\t"
        "madc.lo.cc.u32 t8, %10, %22, t8;\n\t"
        "madc.hi.cc.u32 t9, %10, %22, t9;\n\t"
        "madc.lo.cc.u32 t0, %12, %22, t0;\n\t"
        "madc.hi.cc.u32 t1, %12, %22, t1;\n\t"
        "madc.lo.cc.u32 t2, %14, %22, t2;\n\t"
        "madc.hi.cc.u32 t3, %14, %22, t3;\n\t"
        "addc.cc.u32 t4, t4, 0;\n\t"
        "addc.u32 t5, t5, 0;\n\t"
        "mad.lo.cc.u32 t7, %9, %22, t7;\n\t"
        "madc.hi.cc.u32 t8, %9, %22, t8;\n\t"
        "madc.lo.cc.u32 t9, %11, %22, t9;\n\t"
        "madc.hi.cc.u32 t0, %11, %22, t0;\n\t"
        "madc.lo.cc.u32 t1, %13, %22, t1;\n\t"
        "madc.hi.cc.u32 t2, %13, %22, t2;\n\t"
        "madc.lo.cc.u32 t3, %15, %22, t3;\n\t"
        "madc.hi.cc.u32 t4, %15, %22, t4;\n\t"
        "addc.u32 t5, t5, 0;\n\t"
        "mul.lo.u32 m, t6, 4026531839;\n\t"
        "mad.lo.cc.u32 t6, m, 4026531841, t6;\n\t"
        "madc.hi.cc.u32 t7, m, 4026531841, t7;\n\t"
        "madc.lo.cc.u32 t8, m, 2042196113, t8;\n\t"
        "madc.hi.cc.u32 t9, m, 2042196113, t9;\n\t"
        "madc.lo.cc.u32 t0, m, 2172737629, t0;\n\t"
        "madc.hi.cc.u32 t1, m, 2172737629, t1;\n\t"
        "madc.lo.cc.u32 t2, m, 3778125865, t2;\n\t"
        "madc.hi.cc.u32 t3, m, 3778125865, t3;\n\t"
        "addc.cc.u32 t4, t4, 0;\n\t"
        "addc.u32 t5, t5, 0;\n\t"
        "mad.lo.cc.u32 t7, m, 1138881939, t7;\n\t"
        "madc.hi.cc.u32 t8, m, 1138881939, t8;\n\t"
        "madc.lo.cc.u32 t9, m, 674490440, t9;\n\t"
        "madc.hi.cc.u32 t0, m, 674490440, t0;\n\t"
        "madc.lo.cc.u32 t1, m, 3092268470, t1;\n\t"
        "madc.hi.cc.u32 t2, m, 3092268470, t2;\n\t"
        "madc.lo.cc.u32 t3, m, 811880050, t3;\n\t"
        "madc.hi.cc.u32 t4, m, 811880050, t4;\n\t"
        "addc.u32 t5, t5, 0;\n\t"
        "mov.u32 t6, 0;\n\t"
        "mad.lo.cc.u32 t7, %8, %23, t7;\n\t"
        "madc.hi.cc.u32 t8, %8, %23, t8;\n\t"
        "madc.lo.cc.u32 t9, %10, %23, t9;\n\t"
        "madc.hi.cc.u32 t0, %10, %23, t0;\n\t"
        "madc.lo.cc.u32 t1, %12, %23, t1;\n\t"
        "madc.hi.cc.u32 t2, %12, %23, t2;\n\t"
        "madc.lo.cc.u32 t3, %14, %23, t3;\n\t"
        "madc.hi.cc.u32 t4, %14, %23, t4;\n\t"
        "addc.cc.u32 t5, t5, 0;\n\t"
        "addc.u32 t6, t6, 0;\n\t"
        "mad.lo.cc.u32 t8, %9, %23, t8;\n\t"
        "madc.hi.cc.u32 t9, %9, %23, t9;\n\t"
        "madc.lo.cc.u32 t0, %11, %23, t0;\n\t"
        "madc.hi.cc.u32 t1, %11, %23, t1;\n\t"
        "madc.lo.cc.u32 t2, %13, %23, t2;\n\t"
        "madc.hi.cc.u32 t3, %13, %23, t3;\n\t"
        "madc.lo.cc.u32 t4, %15, %23, t4;\n\t"
        "madc.hi.cc.u32 t5, %15, %23, t5;\n\t"
        "addc.u32 t6, t6, 0;\n\t"
        "mul.lo.u32 m, t7, 4026531839;\n\t"
        "mad.lo.cc.u32 t7, m, 4026531841, t7;\n\t"
        "madc.hi.cc.u32 t8, m, 4026531841, t8;\n\t"
        "madc.lo.cc.u32 t9, m, 2042196113, t9;\n\t"
        "madc.hi.cc.u32 t0, m, 2042196113, t0;\n\t"
        "madc.lo.cc.u32 t1, m, 2172737629, t1;\n\t"
        "madc.hi.cc.u32 t2, m, 2172737629, t2;\n\t"
        "madc.lo.cc.u32 t3, m, 3778125865, t3;\n\t"
        "madc.hi.cc.u32 t4, m, 3778125865, t4;\n\t"
        "addc.cc.u32 t5, t5, 0;\n\t"
        "addc.u32 t6, t6, 0;\n\t"
        "mad.lo.cc.u32 t8, m, 1138881939, t8;\n\t"
        "madc.hi.cc.u32 t9, m, 1138881939, t9;\n\t"
        "madc.lo.cc.u32 t0, m, 674490440, t0;\n\t"
        "madc.hi.cc.u32 t1, m, 674490440, t1;\n\t"
        "madc.lo.cc.u32 t2, m, 3092268470, t2;\n\t"
        "madc.hi.cc.u32 t3, m, 3092268470, t3;\n\t"
        "madc.lo.cc.u32 t4, m, 811880050, t4;\n\t"
        "madc.hi.cc.u32 t5, m, 811880050, t5;\n\t"
        "addc.u32 t6, t6, 0;\n\t"
        "mov.u32 t7, 0;\n\t"
        "sub.cc.u32 s0, t8, 4026531841;\n\t"
        "subc.cc.u32 s1, t9, 1138881939;\n\t"
        "subc.cc.u32 s2, t0, 2042196113;\n\t"
        "subc.cc.u32 s3, t1, 674490440;\n\t"
        "subc.cc.u32 s4, t2, 2172737629;\n\t"
        "subc.cc.u32 s5, t3, 3092268470;\n\t"
        "subc.cc.u32 s6, t4, 3778125865;\n\t"
        "subc.cc.u32 s7, t5, 811880050;\n\t"
        "subc.u32 bw, 0, 0;\n\t"
        "setp.ne.u32 p, bw, 0;\n\t"
        "selp.b32 %0, t8, s0, p;\n\t"
        "selp.b32 %1, t9, s1, p;\n\t"
        "selp.b32 %2, t0, s2, p;\n\t"
        "selp.b32 %3, t1, s3, p;\n\t"
        "selp.b32 %4, t2, s4, p;\n\t"
        "selp.b32 %5, t3, s5, p;\n\t"
        "selp.b32 %6, t4, s6, p;\n\t"
        "selp.b32 %7, t5, s7, p;\n\t"
        "}"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]));
}
// END PTX bn254_mul


// The four-step BN254 passes keep values lazily reduced in [0, 2q) between
// operations (q < 2^254, so 4q < 2^256) and multiply by table constants with
// Shoup's method instead of a Montgomery product: for a constant w < q in
// plain form and ws = floor(w·2^256/q), a·w mod q = a·w − Q·q with Q =
// floor(a·ws/2^256) for any 256-bit a. Data in Montgomery form (x·R) times
// plain w gives (x·w)·R, so the data stays in Montgomery form. Q comes from
// the product terms of a·ws in columns ≥ 7 (32-bit columns; the dropped
// terms sum to less than 28·2^224, so Q is exact or one less), a·w and Q·q
// only modulo 2^256: 79 + 64 + 64 = 207 multiply-adds against 264 for
// CIOS, and a·w − Q·q < 3q is brought below 2q by one conditional
// subtraction. Additions and subtractions work modulo 2q; the pass that
// writes the transform's output reduces to [0, q).
//
// The block adds Q·(2^256 − q) into the accumulators of a·w (a·w − Q·q
// modulo 2^256, no separate product and subtraction), and each row of
// products adds into two accumulators, one for the lo/hi pairs that start
// at even columns and one for those at odd columns (summed once at the
// end): every pair is one aligned 64-bit register pair of an IMAD.WIDE, so
// the compiler needs no moves to build them, and the two chains of a row
// are independent. 2^24 FFT DIF on the H100: 4.13 -> 3.83 ms against one
// accumulator per part with Q·q subtracted (SASS of the 8-bit DIF pass:
// 8,646 -> 7,000 instructions, 2,228 -> about 300 moves).

// BEGIN PTX bn254_shoup
__device__ __forceinline__ void bn254x32_shoup(u32 *r, const u32 *a, const u32 *b, const u32 *c) {
    asm("{\n\t"
        ".reg .u32 qe<16>, qo<16>, le<8>, lo<8>, se<8>, bw;\n\t"
        ".reg .pred p;\n\t"
        "mov.u32 qe7, 0;\n\t"
        "mov.u32 qo7, 0;\n\t"
        "mov.u32 qe8, 0;\n\t"
        "mov.u32 qo8, 0;\n\t"
        "mov.u32 qe9, 0;\n\t"
        "mov.u32 qo9, 0;\n\t"
        "mov.u32 qe10, 0;\n\t"
        "mov.u32 qo10, 0;\n\t"
        "mov.u32 qe11, 0;\n\t"
        "mov.u32 qo11, 0;\n\t"
        "mov.u32 qe12, 0;\n\t"
        "mov.u32 qo12, 0;\n\t"
        "mov.u32 qe13, 0;\n\t"
        "mov.u32 qo13, 0;\n\t"
        "mov.u32 qe14, 0;\n\t"
        "mov.u32 qo14, 0;\n\t"
        "mov.u32 qe15, 0;\n\t"
        "mov.u32 qo15, 0;\n\t"
        "mad.hi.cc.u32 qe7, %8, %30, qe7;\n\t"
        "addc.u32 qe8, qe8, 0;\n\t"
        "mad.lo.cc.u32 qo7, %8, %31, qo7;\n\t"
        "madc.hi.cc.u32 qo8, %8, %31, qo8;\n\t"
        "addc.u32 qo9, qo9, 0;\n\t"
        "mad.lo.cc.u32 qo7, %9, %30, qo7;\n\t"
        "madc.hi.cc.u32 qo8, %9, %30, qo8;\n\t"
        "addc.u32 qo9, qo9, 0;\n\t"
        "mad.hi.cc.u32 qe7, %9, %29, qe7;\n\t"
        "madc.lo.cc.u32 qe8, %9, %31, qe8;\n\t"
        "madc.hi.cc.u32 qe9, %9, %31, qe9;\n\t"
        "addc.u32 qe10, qe10, 0;\n\t"
        "mad.hi.cc.u32 qe7, %10, %28, qe7;\n\t"
        "madc.lo.cc.u32 qe8, %10, %30, qe8;\n\t"
        "madc.hi.cc.u32 qe9, %10, %30, qe9;\n\t"
        "addc.u32 qe10, qe10, 0;\n\t"
        "mad.lo.cc.u32 qo7, %10, %29, qo7;\n\t"
        "madc.hi.cc.u32 qo8, %10, %29, qo8;\n\t"
        "madc.lo.cc.u32 qo9, %10, %31, qo9;\n\t"
        "madc.hi.cc.u32 qo10, %10, %31, qo10;\n\t"
        "addc.u32 qo11, qo11, 0;\n\t"
        "mad.lo.cc.u32 qo7, %11, %28, qo7;\n\t"
        "madc.hi.cc.u32 qo8, %11, %28, qo8;\n\t"
        "madc.lo.cc.u32 qo9, %11, %30, qo9;\n\t"
        "madc.hi.cc.u32 qo10, %11, %30, qo10;\n\t"
        "addc.u32 qo11, qo11, 0;\n\t"
        "mad.hi.cc.u32 qe7, %11, %27, qe7;\n\t"
        "madc.lo.cc.u32 qe8, %11, %29, qe8;\n\t"
        "madc.hi.cc.u32 qe9, %11, %29, qe9;\n\t"
        "madc.lo.cc.u32 qe10, %11, %31, qe10;\n\t"
        "madc.hi.cc.u32 qe11, %11, %31, qe11;\n\t"
        "addc.u32 qe12, qe12, 0;\n\t"
        "mad.hi.cc.u32 qe7, %12, %26, qe7;\n\t"
        "madc.lo.cc.u32 qe8, %12, %28, qe8;\n\t"
        "madc.hi.cc.u32 qe9, %12, %28, qe9;\n\t"
        "madc.lo.cc.u32 qe10, %12, %30, qe10;\n\t"
        "madc.hi.cc.u32 qe11, %12, %30, qe11;\n\t"
        "addc.u32 qe12, qe12, 0;\n\t"
        "mad.lo.cc.u32 qo7, %12, %27, qo7;\n\t"
        "madc.hi.cc.u32 qo8, %12, %27, qo8;\n\t"
        "madc.lo.cc.u32 qo9, %12, %29, qo9;\n\t"
        "madc.hi.cc.u32 qo10, %12, %29, qo10;\n\t"
        "madc.lo.cc.u32 qo11, %12, %31, qo11;\n\t"
        "madc.hi.cc.u32 qo12, %12, %31, qo12;\n\t"
        "addc.u32 qo13, qo13, 0;\n\t"
        "mad.lo.cc.u32 qo7, %13, %26, qo7;\n\t"
        "madc.hi.cc.u32 qo8, %13, %26, qo8;\n\t"
        "madc.lo.cc.u32 qo9, %13, %28, qo9;\n\t"
        "madc.hi.cc.u32 qo10, %13, %28, qo10;\n\t"
        "madc.lo.cc.u32 qo11, %13, %30, qo11;\n\t"
        "madc.hi.cc.u32 qo12, %13, %30, qo12;\n\t"
        "addc.u32 qo13, qo13, 0;\n\t"
        "mad.hi.cc.u32 qe7, %13, %25, qe7;\n\t"
        "madc.lo.cc.u32 qe8, %13, %27, qe8;\n\t"
        "madc.hi.cc.u32 qe9, %13, %27, qe9;\n\t"
        "madc.lo.cc.u32 qe10, %13, %29, qe10;\n\t"
        "madc.hi.cc.u32 qe11, %13, %29, qe11;\n\t"
        "madc.lo.cc.u32 qe12, %13, %31, qe12;\n\t"
        "madc.hi.cc.u32 qe13, %13, %31, qe13;\n\t"
        "addc.u32 qe14, qe14, 0;\n\t"
        "mad.hi.cc.u32 qe7, %14, %24, qe7;\n\t"
        "madc.lo.cc.u32 qe8, %14, %26, qe8;\n\t"
        "madc.hi.cc.u32 qe9, %14, %26, qe9;\n\t"
        "madc.lo.cc.u32 qe10, %14, %28, qe10;\n\t"
        "madc.hi.cc.u32 qe11, %14, %28, qe11;\n\t"
        "madc.lo.cc.u32 qe12, %14, %30, qe12;\n\t"
        "madc.hi.cc.u32 qe13, %14, %30, qe13;\n\t"
        "addc.u32 qe14, qe14, 0;\n\t"
        "mad.lo.cc.u32 qo7, %14, %25, qo7;\n\t"
        "madc.hi.cc.u32 qo8, %14, %25, qo8;\n\t"
        "madc.lo.cc.u32 qo9, %14, %27, qo9;\n\t"
        "madc.hi.cc.u32 qo10, %14, %27, qo10;\n\t"
        "madc.lo.cc.u32 qo11, %14, %29, qo11;\n\t"
        "madc.hi.cc.u32 qo12, %14, %29, qo12;\n\t"
        "madc.lo.cc.u32 qo13, %14, %31, qo13;\n\t"
        "madc.hi.cc.u32 qo14, %14, %31, qo14;\n\t"
        "addc.u32 qo15, qo15, 0;\n\t"
        "mad.lo.cc.u32 qo7, %15, %24, qo7;\n\t"
        "madc.hi.cc.u32 qo8, %15, %24, qo8;\n\t"
        "madc.lo.cc.u32 qo9, %15, %26, qo9;\n\t"
        "madc.hi.cc.u32 qo10, %15, %26, qo10;\n\t"
        "madc.lo.cc.u32 qo11, %15, %28, qo11;\n\t"
        "madc.hi.cc.u32 qo12, %15, %28, qo12;\n\t"
        "madc.lo.cc.u32 qo13, %15, %30, qo13;\n\t"
        "madc.hi.cc.u32 qo14, %15, %30, qo14;\n\t"
        "addc.u32 qo15, qo15, 0;\n\t"
        "mad.lo.cc.u32 qe8, %15, %25, qe8;\n\t"
        "madc.hi.cc.u32 qe9, %15, %25, qe9;\n\t"
        "madc.lo.cc.u32 qe10, %15, %27, qe10;\n\t"
        "madc.hi.cc.u32 qe11, %15, %27, qe11;\n\t"
        "madc.lo.cc.u32 qe12, %15, %29, qe12;\n\t"
        "madc.hi.cc.u32 qe13, %15, %29, qe13;\n\t"
        "madc.lo.cc.u32 qe14, %15, %31, qe14;\n\t"
        "madc.hi.u32 qe15, %15, %31, qe15;\n\t"
        "add.cc.u32 qe7, qe7, qo7;\n\t"
        "addc.cc.u32 qe8, qe8, qo8;\n\t"
        "addc.cc.u32 qe9, qe9, qo9;\n\t"
        "addc.cc.u32 qe10, qe10, qo10;\n\t"
        "addc.cc.u32 qe11, qe11, qo11;\n\t"
        "addc.cc.u32 qe12, qe12, qo12;\n\t"
        "addc.cc.u32 qe13, qe13, qo13;\n\t"
        "addc.cc.u32 qe14, qe14, qo14;\n\t"
        "addc.u32 qe15, qe15, qo15;\n\t"
        "mov.u32 le0, 0;\n\t"
        "mov.u32 lo0, 0;\n\t"
        "mov.u32 le1, 0;\n\t"
        "mov.u32 lo1, 0;\n\t"
        "mov.u32 le2, 0;\n\t"
        "mov.u32 lo2, 0;\n\t"
        "mov.u32 le3, 0;\n\t"
        "mov.u32 lo3, 0;\n\t"
        "mov.u32 le4, 0;\n\t"
        "mov.u32 lo4, 0;\n\t"
        "mov.u32 le5, 0;\n\t"
        "mov.u32 lo5, 0;\n\t"
        "mov.u32 le6, 0;\n\t"
        "mov.u32 lo6, 0;\n\t"
        "mov.u32 le7, 0;\n\t"
        "mov.u32 lo7, 0;\n\t"
        "mad.lo.cc.u32 le0, %8, %16, le0;\n\t"
        "madc.hi.cc.u32 le1, %8, %16, le1;\n\t"
        "madc.lo.cc.u32 le2, %8, %18, le2;\n\t"
        "madc.hi.cc.u32 le3, %8, %18, le3;\n\t"
        "madc.lo.cc.u32 le4, %8, %20, le4;\n\t"
        "madc.hi.cc.u32 le5, %8, %20, le5;\n\t"
        "madc.lo.cc.u32 le6, %8, %22, le6;\n\t"
        "madc.hi.u32 le7, %8, %22, le7;\n\t"
        "mad.lo.cc.u32 lo1, %8, %17, lo1;\n\t"
        "madc.hi.cc.u32 lo2, %8, %17, lo2;\n\t"
        "madc.lo.cc.u32 lo3, %8, %19, lo3;\n\t"
        "madc.hi.cc.u32 lo4, %8, %19, lo4;\n\t"
        "madc.lo.cc.u32 lo5, %8, %21, lo5;\n\t"
        "madc.hi.cc.u32 lo6, %8, %21, lo6;\n\t"
        "madc.lo.u32 lo7, %8, %23, lo7;\n\t"
        "mad.lo.cc.u32 lo1, %9, %16, lo1;\n\t"
        "madc.hi.cc.u32 lo2, %9, %16, lo2;\n\t"
        "madc.lo.cc.u32 lo3, %9, %18, lo3;\n\t"
        "madc.hi.cc.u32 lo4, %9, %18, lo4;\n\t"
        "madc.lo.cc.u32 lo5, %9, %20, lo5;\n\t"
        "madc.hi.cc.u32 lo6, %9, %20, lo6;\n\t"
        "madc.lo.u32 lo7, %9, %22, lo7;\n\t"
        "mad.lo.cc.u32 le2, %9, %17, le2;\n\t"
        "madc.hi.cc.u32 le3, %9, %17, le3;\n\t"
        "madc.lo.cc.u32 le4, %9, %19, le4;\n\t"
        "madc.hi.cc.u32 le5, %9, %19, le5;\n\t"
        "madc.lo.cc.u32 le6, %9, %21, le6;\n\t"
        "madc.hi.u32 le7, %9, %21, le7;\n\t"
        "mad.lo.cc.u32 le2, %10, %16, le2;\n\t"
        "madc.hi.cc.u32 le3, %10, %16, le3;\n\t"
        "madc.lo.cc.u32 le4, %10, %18, le4;\n\t"
        "madc.hi.cc.u32 le5, %10, %18, le5;\n\t"
        "madc.lo.cc.u32 le6, %10, %20, le6;\n\t"
        "madc.hi.u32 le7, %10, %20, le7;\n\t"
        "mad.lo.cc.u32 lo3, %10, %17, lo3;\n\t"
        "madc.hi.cc.u32 lo4, %10, %17, lo4;\n\t"
        "madc.lo.cc.u32 lo5, %10, %19, lo5;\n\t"
        "madc.hi.cc.u32 lo6, %10, %19, lo6;\n\t"
        "madc.lo.u32 lo7, %10, %21, lo7;\n\t"
        "mad.lo.cc.u32 lo3, %11, %16, lo3;\n\t"
        "madc.hi.cc.u32 lo4, %11, %16, lo4;\n\t"
        "madc.lo.cc.u32 lo5, %11, %18, lo5;\n\t"
        "madc.hi.cc.u32 lo6, %11, %18, lo6;\n\t"
        "madc.lo.u32 lo7, %11, %20, lo7;\n\t"
        "mad.lo.cc.u32 le4, %11, %17, le4;\n\t"
        "madc.hi.cc.u32 le5, %11, %17, le5;\n\t"
        "madc.lo.cc.u32 le6, %11, %19, le6;\n\t"
        "madc.hi.u32 le7, %11, %19, le7;\n\t"
        "mad.lo.cc.u32 le4, %12, %16, le4;\n\t"
        "madc.hi.cc.u32 le5, %12, %16, le5;\n\t"
        "madc.lo.cc.u32 le6, %12, %18, le6;\n\t"
        "madc.hi.u32 le7, %12, %18, le7;\n\t"
        "mad.lo.cc.u32 lo5, %12, %17, lo5;\n\t"
        "madc.hi.cc.u32 lo6, %12, %17, lo6;\n\t"
        "madc.lo.u32 lo7, %12, %19, lo7;\n\t"
        "mad.lo.cc.u32 lo5, %13, %16, lo5;\n\t"
        "madc.hi.cc.u32 lo6, %13, %16, lo6;\n\t"
        "madc.lo.u32 lo7, %13, %18, lo7;\n\t"
        "mad.lo.cc.u32 le6, %13, %17, le6;\n\t"
        "madc.hi.u32 le7, %13, %17, le7;\n\t"
        "mad.lo.cc.u32 le6, %14, %16, le6;\n\t"
        "madc.hi.u32 le7, %14, %16, le7;\n\t"
        "mad.lo.u32 lo7, %14, %17, lo7;\n\t"
        "mad.lo.u32 lo7, %15, %16, lo7;\n\t"
        "mad.lo.cc.u32 le0, qe8, 268435455, le0;\n\t"
        "madc.hi.cc.u32 le1, qe8, 268435455, le1;\n\t"
        "madc.lo.cc.u32 le2, qe8, 2252771182, le2;\n\t"
        "madc.hi.cc.u32 le3, qe8, 2252771182, le3;\n\t"
        "madc.lo.cc.u32 le4, qe8, 2122229666, le4;\n\t"
        "madc.hi.cc.u32 le5, qe8, 2122229666, le5;\n\t"
        "madc.lo.cc.u32 le6, qe8, 516841430, le6;\n\t"
        "madc.hi.u32 le7, qe8, 516841430, le7;\n\t"
        "mad.lo.cc.u32 lo1, qe8, 3156085356, lo1;\n\t"
        "madc.hi.cc.u32 lo2, qe8, 3156085356, lo2;\n\t"
        "madc.lo.cc.u32 lo3, qe8, 3620476855, lo3;\n\t"
        "madc.hi.cc.u32 lo4, qe8, 3620476855, lo4;\n\t"
        "madc.lo.cc.u32 lo5, qe8, 1202698825, lo5;\n\t"
        "madc.hi.cc.u32 lo6, qe8, 1202698825, lo6;\n\t"
        "madc.lo.u32 lo7, qe8, 3483087245, lo7;\n\t"
        "mad.lo.cc.u32 lo1, qe9, 268435455, lo1;\n\t"
        "madc.hi.cc.u32 lo2, qe9, 268435455, lo2;\n\t"
        "madc.lo.cc.u32 lo3, qe9, 2252771182, lo3;\n\t"
        "madc.hi.cc.u32 lo4, qe9, 2252771182, lo4;\n\t"
        "madc.lo.cc.u32 lo5, qe9, 2122229666, lo5;\n\t"
        "madc.hi.cc.u32 lo6, qe9, 2122229666, lo6;\n\t"
        "madc.lo.u32 lo7, qe9, 516841430, lo7;\n\t"
        "mad.lo.cc.u32 le2, qe9, 3156085356, le2;\n\t"
        "madc.hi.cc.u32 le3, qe9, 3156085356, le3;\n\t"
        "madc.lo.cc.u32 le4, qe9, 3620476855, le4;\n\t"
        "madc.hi.cc.u32 le5, qe9, 3620476855, le5;\n\t"
        "madc.lo.cc.u32 le6, qe9, 1202698825, le6;\n\t"
        "madc.hi.u32 le7, qe9, 1202698825, le7;\n\t"
        "mad.lo.cc.u32 le2, qe10, 268435455, le2;\n\t"
        "madc.hi.cc.u32 le3, qe10, 268435455, le3;\n\t"
        "madc.lo.cc.u32 le4, qe10, 2252771182, le4;\n\t"
        "madc.hi.cc.u32 le5, qe10, 2252771182, le5;\n\t"
        "madc.lo.cc.u32 le6, qe10, 2122229666, le6;\n\t"
        "madc.hi.u32 le7, qe10, 2122229666, le7;\n\t"
        "mad.lo.cc.u32 lo3, qe10, 3156085356, lo3;\n\t"
        "madc.hi.cc.u32 lo4, qe10, 3156085356, lo4;\n\t"
        "madc.lo.cc.u32 lo5, qe10, 3620476855, lo5;\n\t"
        "madc.hi.cc.u32 lo6, qe10, 3620476855, lo6;\n\t"
        "madc.lo.u32 lo7, qe10, 1202698825, lo7;\n\t"
        "mad.lo.cc.u32 lo3, qe11, 268435455, lo3;\n\t"
        "madc.hi.cc.u32 lo4, qe11, 268435455, lo4;\n\t"
        "madc.lo.cc.u32 lo5, qe11, 2252771182, lo5;\n\t"
        "madc.hi.cc.u32 lo6, qe11, 2252771182, lo6;\n\t"
        "madc.lo.u32 lo7, qe11, 2122229666, lo7;\n\t"
        "mad.lo.cc.u32 le4, qe11, 3156085356, le4;\n\t"
        "madc.hi.cc.u32 le5, qe11, 3156085356, le5;\n\t"
        "madc.lo.cc.u32 le6, qe11, 3620476855, le6;\n\t"
        "madc.hi.u32 le7, qe11, 3620476855, le7;\n\t"
        "mad.lo.cc.u32 le4, qe12, 268435455, le4;\n\t"
        "madc.hi.cc.u32 le5, qe12, 268435455, le5;\n\t"
        "madc.lo.cc.u32 le6, qe12, 2252771182, le6;\n\t"
        "madc.hi.u32 le7, qe12, 2252771182, le7;\n\t"
        "mad.lo.cc.u32 lo5, qe12, 3156085356, lo5;\n\t"
        "madc.hi.cc.u32 lo6, qe12, 3156085356, lo6;\n\t"
        "madc.lo.u32 lo7, qe12, 3620476855, lo7;\n\t"
        "mad.lo.cc.u32 lo5, qe13, 268435455, lo5;\n\t"
        "madc.hi.cc.u32 lo6, qe13, 268435455, lo6;\n\t"
        "madc.lo.u32 lo7, qe13, 2252771182, lo7;\n\t"
        "mad.lo.cc.u32 le6, qe13, 3156085356, le6;\n\t"
        "madc.hi.u32 le7, qe13, 3156085356, le7;\n\t"
        "mad.lo.cc.u32 le6, qe14, 268435455, le6;\n\t"
        "madc.hi.u32 le7, qe14, 268435455, le7;\n\t"
        "mad.lo.u32 lo7, qe14, 3156085356, lo7;\n\t"
        "mad.lo.u32 lo7, qe15, 268435455, lo7;\n\t"
        "add.cc.u32 le0, le0, lo0;\n\t"
        "addc.cc.u32 le1, le1, lo1;\n\t"
        "addc.cc.u32 le2, le2, lo2;\n\t"
        "addc.cc.u32 le3, le3, lo3;\n\t"
        "addc.cc.u32 le4, le4, lo4;\n\t"
        "addc.cc.u32 le5, le5, lo5;\n\t"
        "addc.cc.u32 le6, le6, lo6;\n\t"
        "addc.u32 le7, le7, lo7;\n\t"
        "sub.cc.u32 se0, le0, 4026531841;\n\t"
        "subc.cc.u32 se1, le1, 1138881939;\n\t"
        "subc.cc.u32 se2, le2, 2042196113;\n\t"
        "subc.cc.u32 se3, le3, 674490440;\n\t"
        "subc.cc.u32 se4, le4, 2172737629;\n\t"
        "subc.cc.u32 se5, le5, 3092268470;\n\t"
        "subc.cc.u32 se6, le6, 3778125865;\n\t"
        "subc.cc.u32 se7, le7, 811880050;\n\t"
        "subc.u32 bw, 0, 0;\n\t"
        "setp.ne.u32 p, bw, 0;\n\t"
        "selp.b32 %0, le0, se0, p;\n\t"
        "selp.b32 %1, le1, se1, p;\n\t"
        "selp.b32 %2, le2, se2, p;\n\t"
        "selp.b32 %3, le3, se3, p;\n\t"
        "selp.b32 %4, le4, se4, p;\n\t"
        "selp.b32 %5, le5, se5, p;\n\t"
        "selp.b32 %6, le6, se6, p;\n\t"
        "selp.b32 %7, le7, se7, p;\n\t"
        "}"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(c[5]), "r"(c[6]), "r"(c[7]));
}
// END PTX bn254_shoup
// BEGIN PTX bn254_ladd
__device__ __forceinline__ void bn254x32_ladd(u32 *r, const u32 *a, const u32 *b) {
    asm("{\n\t"
        ".reg .u32 t<8>, s<8>, bw;\n\t"
        ".reg .pred p;\n\t"
        "add.cc.u32 t0, %8, %16;\n\t"
        "addc.cc.u32 t1, %9, %17;\n\t"
        "addc.cc.u32 t2, %10, %18;\n\t"
        "addc.cc.u32 t3, %11, %19;\n\t"
        "addc.cc.u32 t4, %12, %20;\n\t"
        "addc.cc.u32 t5, %13, %21;\n\t"
        "addc.cc.u32 t6, %14, %22;\n\t"
        "addc.u32 t7, %15, %23;\n\t"
        "sub.cc.u32 s0, t0, 3758096386;\n\t"
        "subc.cc.u32 s1, t1, 2277763879;\n\t"
        "subc.cc.u32 s2, t2, 4084392226;\n\t"
        "subc.cc.u32 s3, t3, 1348980880;\n\t"
        "subc.cc.u32 s4, t4, 50507962;\n\t"
        "subc.cc.u32 s5, t5, 1889569645;\n\t"
        "subc.cc.u32 s6, t6, 3261284435;\n\t"
        "subc.cc.u32 s7, t7, 1623760101;\n\t"
        "subc.u32 bw, 0, 0;\n\t"
        "setp.ne.u32 p, bw, 0;\n\t"
        "selp.b32 %0, t0, s0, p;\n\t"
        "selp.b32 %1, t1, s1, p;\n\t"
        "selp.b32 %2, t2, s2, p;\n\t"
        "selp.b32 %3, t3, s3, p;\n\t"
        "selp.b32 %4, t4, s4, p;\n\t"
        "selp.b32 %5, t5, s5, p;\n\t"
        "selp.b32 %6, t6, s6, p;\n\t"
        "selp.b32 %7, t7, s7, p;\n\t"
        "}"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]));
}
// END PTX bn254_ladd
// BEGIN PTX bn254_lsub
__device__ __forceinline__ void bn254x32_lsub(u32 *r, const u32 *a, const u32 *b) {
    asm("{\n\t"
        ".reg .u32 t<8>, bw, c;\n\t"
        "sub.cc.u32 t0, %8, %16;\n\t"
        "subc.cc.u32 t1, %9, %17;\n\t"
        "subc.cc.u32 t2, %10, %18;\n\t"
        "subc.cc.u32 t3, %11, %19;\n\t"
        "subc.cc.u32 t4, %12, %20;\n\t"
        "subc.cc.u32 t5, %13, %21;\n\t"
        "subc.cc.u32 t6, %14, %22;\n\t"
        "subc.cc.u32 t7, %15, %23;\n\t"
        "subc.u32 bw, 0, 0;\n\t"
        "and.b32 c, bw, 3758096386;\n\t"
        "add.cc.u32 %0, t0, c;\n\t"
        "and.b32 c, bw, 2277763879;\n\t"
        "addc.cc.u32 %1, t1, c;\n\t"
        "and.b32 c, bw, 4084392226;\n\t"
        "addc.cc.u32 %2, t2, c;\n\t"
        "and.b32 c, bw, 1348980880;\n\t"
        "addc.cc.u32 %3, t3, c;\n\t"
        "and.b32 c, bw, 50507962;\n\t"
        "addc.cc.u32 %4, t4, c;\n\t"
        "and.b32 c, bw, 1889569645;\n\t"
        "addc.cc.u32 %5, t5, c;\n\t"
        "and.b32 c, bw, 3261284435;\n\t"
        "addc.cc.u32 %6, t6, c;\n\t"
        "and.b32 c, bw, 1623760101;\n\t"
        "addc.u32 %7, t7, c;\n\t"
        "}"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]));
}
// END PTX bn254_lsub
// BEGIN PTX bn254_sub2q
__device__ __forceinline__ void bn254x32_sub2q(u32 *r, const u32 *a, const u32 *b) {
    asm("{\n\t"
        ".reg .u32 t<8>;\n\t"
        "sub.cc.u32 t0, %8, %16;\n\t"
        "subc.cc.u32 t1, %9, %17;\n\t"
        "subc.cc.u32 t2, %10, %18;\n\t"
        "subc.cc.u32 t3, %11, %19;\n\t"
        "subc.cc.u32 t4, %12, %20;\n\t"
        "subc.cc.u32 t5, %13, %21;\n\t"
        "subc.cc.u32 t6, %14, %22;\n\t"
        "subc.u32 t7, %15, %23;\n\t"
        "add.cc.u32 %0, t0, 3758096386;\n\t"
        "addc.cc.u32 %1, t1, 2277763879;\n\t"
        "addc.cc.u32 %2, t2, 4084392226;\n\t"
        "addc.cc.u32 %3, t3, 1348980880;\n\t"
        "addc.cc.u32 %4, t4, 50507962;\n\t"
        "addc.cc.u32 %5, t5, 1889569645;\n\t"
        "addc.cc.u32 %6, t6, 3261284435;\n\t"
        "addc.u32 %7, t7, 1623760101;\n\t"
        "}"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(b[4]), "r"(b[5]), "r"(b[6]), "r"(b[7]));
}
// END PTX bn254_sub2q
// BEGIN PTX bn254_canon
__device__ __forceinline__ void bn254x32_canon(u32 *r, const u32 *a) {
    asm("{\n\t"
        ".reg .u32 s<8>, bw;\n\t"
        ".reg .pred p;\n\t"
        "sub.cc.u32 s0, %8, 4026531841;\n\t"
        "subc.cc.u32 s1, %9, 1138881939;\n\t"
        "subc.cc.u32 s2, %10, 2042196113;\n\t"
        "subc.cc.u32 s3, %11, 674490440;\n\t"
        "subc.cc.u32 s4, %12, 2172737629;\n\t"
        "subc.cc.u32 s5, %13, 3092268470;\n\t"
        "subc.cc.u32 s6, %14, 3778125865;\n\t"
        "subc.cc.u32 s7, %15, 811880050;\n\t"
        "subc.u32 bw, 0, 0;\n\t"
        "setp.ne.u32 p, bw, 0;\n\t"
        "selp.b32 %0, %8, s0, p;\n\t"
        "selp.b32 %1, %9, s1, p;\n\t"
        "selp.b32 %2, %10, s2, p;\n\t"
        "selp.b32 %3, %11, s3, p;\n\t"
        "selp.b32 %4, %12, s4, p;\n\t"
        "selp.b32 %5, %13, s5, p;\n\t"
        "selp.b32 %6, %14, s6, p;\n\t"
        "selp.b32 %7, %15, s7, p;\n\t"
        "}"
        : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(a[4]), "r"(a[5]), "r"(a[6]), "r"(a[7]));
}
// END PTX bn254_canon

// A constant for Shoup's product: w < q in plain form and floor(w·2^256/q).
struct __align__(16) Sh8 {
    Fr8 w, s;
};

// ldSh8 reads a constant from global memory in four 16-byte loads (read
// through a reference by the asm operands, the table entry went as sixteen
// 4-byte loads).
__device__ __forceinline__ Sh8 ldSh8(const Sh8 *p) {
    Sh8 r;
#pragma unroll
    for (int i = 0; i < 4; i++) {
        u32 *o = i < 2 ? r.w.l + 4 * i : r.s.l + 4 * (i - 2);
        asm("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];"
            : "=r"(o[0]), "=r"(o[1]), "=r"(o[2]), "=r"(o[3])
            : "l"(reinterpret_cast<const char *>(p) + 16 * i));
    }
    return r;
}

struct BN254x32 {
    typedef Fr8 E;
    // lazily reduced operations of the four-step passes (values below 2q)
    __device__ static __forceinline__ E ladd(const E &a, const E &b) {
        E r;
        bn254x32_ladd(r.l, a.l, b.l);
        return r;
    }
    __device__ static __forceinline__ E lsub(const E &a, const E &b) {
        E r;
        bn254x32_lsub(r.l, a.l, b.l);
        return r;
    }
    __device__ static __forceinline__ E sub2q(const E &a, const E &b) {
        E r;
        bn254x32_sub2q(r.l, a.l, b.l);
        return r;
    }
    __device__ static __forceinline__ E shoup(const E &a, const Sh8 &c) {
        E r;
        bn254x32_shoup(r.l, a.l, c.w.l, c.s.l);
        return r;
    }
    __device__ static __forceinline__ E canon(const E &a) {
        E r;
        bn254x32_canon(r.l, a.l);
        return r;
    }
    __device__ static __forceinline__ E mul(const E &a, const E &b) {
        E r;
        bn254x32_mul(r.l, a.l, b.l);
        return r;
    }
};

// ---------------------------------------------------------------- BN254 four-step passes

// ntt_bn254_fs is the four-step pass for BN254 with lazily reduced values
// and Shoup products (see the PTX blocks above), 2^RL elements per thread,
// no staging; a group's row holds 2^NST + 1 elements, element t at
// t ^ ((t >> RL) mod R).
// Every constant comes from one table pw of Sh8 pairs: pw[x] = ω_K^x for
// x < K = 2^pwK (ω_K = ω^(n/K); pwK from gpu/primentt's bn254ShoupK: 16,
// or up to 18 where that gives a pass its twiddle in one entry), then ω^x
// for x < n/K. The inner transforms' twiddle ω_(2^(q+1))^j is pw[j·K/2^(q+1)];
// the pass twiddle ω_M^e (M = 2^(lo+NST)) is pw[e·K/M] when M ≤ K, else
// the product of pw[e'/(n/K)] and pw[K + e' mod (n/K)], e' = e·n/M (two
// Shoup products). Butterflies whose twiddle is 1 at compile time (the
// round window at bit 0) skip the product. Values stay below 2q between
// passes; the pass that writes the output reduces them, or multiplies by
// the coset powers (a Montgomery product with a canonical result) or by
// 1/n: a Shoup product by the pair post points to (an Sh8, not an Fr8, under
// F_POST_CONST), then the canonical reduction. The Montgomery product by
// 1/n it replaces is one long carry chain per element (CIOS) on the pass's
// last step.
template <int NST, int RL, bool DIT, int IO = FS_IN_PLACE, int BOT = -1>
__device__ __forceinline__ void ntt_bn254_fs(Fr8 *__restrict__ data, const Fr8 *__restrict__ src, u64 colStride,
                                             const Sh8 *__restrict__ pw,
                                             u32 pwK, const Fr8 *__restrict__ pre, const Fr8 *__restrict__ post,
                                             u32 tabH, u32 logn, u32 loArg, u32 logc, u32 flags) {
    typedef BN254x32 F;
    typedef Fr8 E;
    constexpr u32 R = 1u << RL;
    constexpr u32 G = 1u << NST;
    constexpr u32 ROW = G + 1;
    constexpr int NR = fs_nr(NST, RL);
    // BOT: compiled for the bottom pass (1: lo = 0, no pass twiddles), for
    // the passes above it (0), or for any pass (−1)
    const u32 lo = BOT == 1 ? 0u : loArg;
    const bool twist = BOT == -1 ? lo > 0 : BOT == 0; // the pass twiddles
    extern __shared__ __align__(16) unsigned char smem_raw[];
    E *sh = reinterpret_cast<E *>(smem_raw);
    Sh8 *twS = reinterpret_cast<Sh8 *>(sh + (ROW << logc)); // stage q at G − 2^(q+1)

    E *col = data + (u64)blockIdx.y * colStride; // stores
    const E *scol = IO == FS_IN_PLACE ? col : src + (u64)blockIdx.y * colStride; // loads (FS_IN_PLACE: src unread)
    const u32 nthr = (G << logc) >> RL;
    // FS_NATURAL (F_NAT_OUT: the bottom DIF pass writes natural order, as in
    // fs_pass): rows blockIdx.x + ol·2^(logn−NST−logc), the group bits
    // lowest in the thread index, so that a warp's stores are runs of 2^logc
    // consecutive outputs
    constexpr bool nat = IO == FS_NATURAL && !DIT;
    const u32 a = nat ? logc : min(lo, logc);
    const u32 lowMask = (1u << lo) - 1;
    const u32 obase = blockIdx.x << logc;
    const u32 tid = threadIdx.x;
    const u32 tpart = (tid >> a) & ((G >> RL) - 1);
    const u32 olocal = (tid & ((1u << a) - 1)) | ((tid >> (a + NST - RL)) << a);
    const u32 o = nat ? (olocal << (logn - NST - logc)) | blockIdx.x : obase + olocal;
    const u32 low = o & lowMask;
    const u32 ibase = ((o >> lo) << (lo + NST)) | low;
    const bool last = DIT ? lo + NST == logn : lo == 0; // this pass writes the output
    E *shg = sh + olocal * ROW;
    auto swz = [](u32 t) -> u32 { return t ^ ((t >> RL) & (R - 1)); };
    // v times the pass twiddle ω_M^(low·k1) of position t
    auto passTw = [&](E v, u32 t) -> E {
        const u32 e = low * (__brev(t) >> (32 - NST)); // < M
        if (lo + NST <= pwK) return F::shoup(v, ldSh8(pw + (e << (pwK - lo - NST))));
        const u32 sa = logn - pwK;
        const u32 e2 = e << (logn - lo - NST);
        v = F::shoup(v, ldSh8(pw + (e2 >> sa)));
        return F::shoup(v, ldSh8(pw + (1u << pwK) + (e2 & ((1u << sa) - 1))));
    };

    if (!(flags & F_PDL_LATE)) pdl_trigger();
    for (u32 y = tid; y < G - 1; y += nthr) {
        const u32 q = 31 - __clz(G - 1 - y);
        twS[y] = ldSh8(pw + ((y - (G - (2u << q))) << (pwK - 1 - q)));
    }
    pdl_wait(); // the tables above are constant; the data is the kernel ahead's

    E x[R];
    // The rounds between the first (global loads) and the last (global
    // stores) run as a loop, not unrolled, where they are two or more and
    // each does RL stages: the code a warp runs is three rounds long
    // instead of NR (H100, one column, forward DIF: 2^13 15.9 -> 13.1 us,
    // 2^20 254 -> 239 us, 2^24 3.83 -> 3.69 ms; natural order 2^15 20.2
    // -> 16.9 us). Their windows start above bit 0: no product is skipped.
    // The butterflies of stages [qb, qb + m) of a round whose window starts
    // at ws: bit q = ws + k of t is bit k of e. The twiddle index j is 0
    // (twiddle 1) known at compile time when the window starts at bit 0;
    // mid (the looped rounds, ws ≥ 1 at run time): no twiddle is 1. Every
    // call passes a constant mid; the lambda is inlined, so it folds away
    // (NVRTC takes no generic lambda in device code).
    auto butterflies = [&](bool mid, int ws, u32 tbase, int qb, int m) {
#pragma unroll
        for (int kk = 0; kk < RL; kk++) {
            const int k = DIT ? kk : RL - 1 - kk;
            const int q = ws + k;
            if (q < qb || q >= qb + m) continue;
            const Sh8 *twq = twS + (G - (2u << q));
#pragma unroll
            for (u32 e = 0; e < R; e++) {
                if (e & (1u << k)) continue;
                const u32 j = (tbase | (e << ws)) & ((1u << q) - 1);
                const bool one = !mid && (q == 0 || (ws == 0 && (e & ((1u << q) - 1)) == 0));
                E v = x[e], y = x[e | (1u << k)];
                if (DIT) {
                    if (!one) y = F::shoup(y, twq[j]);
                    x[e] = F::ladd(v, y);
                    x[e | (1u << k)] = F::lsub(v, y);
                } else {
                    x[e] = F::ladd(v, y);
                    x[e | (1u << k)] = one ? F::lsub(v, y) : F::shoup(F::sub2q(v, y), twq[j]);
                }
            }
        }
    };
    constexpr bool ROLL = NR >= 4 && fs_m(NST, NR, NR - 2) == RL;
    auto middle = [&]() {
#pragma unroll 1
        for (int rd = 1; rd < NR - 1; rd++) {
            const int ws = DIT ? rd * RL : NST - (rd + 1) * RL; // 1 ≤ ws ≤ NST − RL
            const u32 tbase = (tpart & ((1u << ws) - 1)) | ((tpart >> ws) << (ws + RL));
#pragma unroll
            for (u32 e = 0; e < R; e++) x[e] = shg[swz(tbase | (e << ws))];
            butterflies(true, ws, tbase, ws, RL);
#pragma unroll
            for (u32 e = 0; e < R; e++) shg[swz(tbase | (e << ws))] = x[e];
            __syncthreads();
        }
    };
#pragma unroll
    for (int rd = 0; rd < NR; rd++) {
        if constexpr (ROLL) {
            if (rd > 0 && rd < NR - 1) {
                if (rd == 1) middle();
                continue;
            }
        }
        const int m = fs_m(NST, NR, rd);
        const int done = fs_done(NST, NR, rd);
        const int qb = DIT ? done : NST - done - m;
        const int ws = qb < NST - RL ? qb : NST - RL;
        const u32 tbase = (tpart & ((1u << ws) - 1)) | ((tpart >> ws) << (ws + RL));
        if (rd == 0) {
#pragma unroll
            for (u32 e = 0; e < R; e++) x[e] = scol[ibase | ((tbase | (e << ws)) << lo)];
#pragma unroll
            for (u32 e = 0; e < R; e++) {
                const u32 t = tbase | (e << ws);
                if (flags & F_PRE_COSET) {
                    u32 i = ibase | (t << lo);
                    u32 k = (flags & F_INDEX_REV) ? bitrev(i, logn) : i;
                    x[e] = F::mul(x[e], power<F>(pre, tabH, k));
                }
                if (DIT && twist) x[e] = passTw(x[e], t);
            }
            __syncthreads(); // twS
        } else {
#pragma unroll
            for (u32 e = 0; e < R; e++) x[e] = shg[swz(tbase | (e << ws))];
        }

        butterflies(false, ws, tbase, qb, m);

        if (rd == NR - 1) {
#pragma unroll
            for (u32 e = 0; e < R; e++) {
                const u32 t = tbase | (e << ws);
                // the output position (nat: bitrev_n(row·2^NST + t))
                const u32 i = nat ? (bitrev(t, NST) << (logn - NST)) | bitrev(o, logn - NST) : ibase | (t << lo);
                E v = x[e];
                if (!DIT && twist) v = passTw(v, t);
                if (flags & F_POST_CONST) {
                    v = F::canon(F::shoup(v, ldSh8(reinterpret_cast<const Sh8 *>(post))));
                } else if (flags & F_POST_COSET) {
                    u32 k = (flags & F_INDEX_REV) ? bitrev(i, logn) : i;
                    v = F::mul(v, power<F>(post, tabH, k));
                } else if (last) {
                    v = F::canon(v);
                }
                col[i] = v;
            }
        } else {
#pragma unroll
            for (u32 e = 0; e < R; e++) shg[swz(tbase | (e << ws))] = x[e];
            __syncthreads();
        }
    }
}

// Arguments as the other four-step kernels', then pw and pwK; tw and rt
// are not read. THREADS, MINB: launch bounds (blocks per SM the registers
// must allow); RL: elements per thread (log2).
// NAME in place, OOP out of place (DIF: the pass above the bottom from src
// to data, the bottom pass writing natural order), as in ntt_fourstep.cu.
#define NTT_BN254_FS(THREADS, MINB, RL, NST, NAME, OOP)                                                 \
    extern "C" __global__ void __launch_bounds__(THREADS, MINB) NAME(                                  \
        Fr8 *data, u64 colStride, const Fr8 *tw, const Fr8 *rt, const Fr8 *pre, const Fr8 *post, u32 tabH, \
        u32 rtH, u32 logn, u32 lo, u32 logc, u32 flags, const Sh8 *pw, u32 pwK) {                     \
        if (flags & F_DIT)                                                                            \
            ntt_bn254_fs<NST, RL, true>(data, data, colStride, pw, pwK, pre, post, tabH, logn, lo, logc, flags); \
        else                                                                                          \
            ntt_bn254_fs<NST, RL, false>(data, data, colStride, pw, pwK, pre, post, tabH, logn, lo, logc, flags); \
        pdl_end(flags);                                                                               \
    }                                                                                                 \
    extern "C" __global__ void __launch_bounds__(THREADS, MINB) OOP(                                   \
        Fr8 *data, const Fr8 *src, u64 colStride, const Fr8 *tw, const Fr8 *rt, const Fr8 *pre, const Fr8 *post, \
        u32 tabH, u32 rtH, u32 logn, u32 lo, u32 logc, u32 flags, const Sh8 *pw, u32 pwK) {           \
        if (lo == 0)                                                                                  \
            ntt_bn254_fs<NST, RL, false, FS_NATURAL>(data, src, colStride, pw, pwK, pre, post, tabH, logn, lo, logc, flags); \
        else                                                                                          \
            ntt_bn254_fs<NST, RL, false, FS_OUT_OF_PLACE>(data, src, colStride, pw, pwK, pre, post, tabH, logn, lo, logc, flags); \
        pdl_end(flags);                                                                               \
    }
// NAME in place with the bottom pass and the passes above it compiled
// apart (BOT), as the out-of-place kernels have them: gpu/primentt's
// splitSizes, where they measured faster than NTT_BN254_FS's.
#define NTT_BN254_FS_SPLIT(THREADS, MINB, RL, NST, NAME)                                                \
    extern "C" __global__ void __launch_bounds__(THREADS, MINB) NAME(                                  \
        Fr8 *data, u64 colStride, const Fr8 *tw, const Fr8 *rt, const Fr8 *pre, const Fr8 *post, u32 tabH, \
        u32 rtH, u32 logn, u32 lo, u32 logc, u32 flags, const Sh8 *pw, u32 pwK) {                     \
        if (flags & F_DIT) {                                                                          \
            if (lo == 0)                                                                              \
                ntt_bn254_fs<NST, RL, true, FS_IN_PLACE, 1>(data, data, colStride, pw, pwK, pre, post, tabH, logn, lo, logc, flags); \
            else                                                                                      \
                ntt_bn254_fs<NST, RL, true, FS_IN_PLACE, 0>(data, data, colStride, pw, pwK, pre, post, tabH, logn, lo, logc, flags); \
        } else {                                                                                      \
            if (lo == 0)                                                                              \
                ntt_bn254_fs<NST, RL, false, FS_IN_PLACE, 1>(data, data, colStride, pw, pwK, pre, post, tabH, logn, lo, logc, flags); \
            else                                                                                      \
                ntt_bn254_fs<NST, RL, false, FS_IN_PLACE, 0>(data, data, colStride, pw, pwK, pre, post, tabH, logn, lo, logc, flags); \
        }                                                                                             \
        pdl_end(flags);                                                                               \
    }
// 4 elements per thread, 3 blocks of 256 threads per SM (80 registers;
// H100, TestPrimeVariants (last at commit e2638ee), 2^24 FFT DIF, the
// product of the block bn254_shoup): 3.83 ms against 4.20 ms at 2 blocks (128 registers) and
// 4.35 ms at 4 (64 registers, spills); with the product of commit 9eb4b1d
// (one accumulator per part), 3 blocks beat 2 blocks by 8%, 4 blocks and
// 2 elements per thread in blocks of 512 (64 registers) were slower.
//
// ntt_bn254_r1_fs*: 2 elements per thread, for transforms too small to fill
// the multiprocessors (a lone column of 2^12..2^20, where a pass is bound
// by the latency of each thread's chain of products, not by issue): twice
// the threads of a tile, each with half the products in sequence.
#if !defined(NTT_ONLY) || defined(NTT_ONLY_bn254)
NTT_BN254_FS(256, 3, 2, 5, ntt_bn254_fs5, ntt_bn254_oop_fs5)
NTT_BN254_FS(256, 3, 2, 6, ntt_bn254_fs6, ntt_bn254_oop_fs6)
NTT_BN254_FS(256, 3, 2, 7, ntt_bn254_fs7, ntt_bn254_oop_fs7)
NTT_BN254_FS(256, 3, 2, 8, ntt_bn254_fs8, ntt_bn254_oop_fs8)
NTT_BN254_FS(256, 3, 2, 9, ntt_bn254_fs9, ntt_bn254_oop_fs9)
NTT_BN254_FS(256, 3, 1, 5, ntt_bn254_r1_fs5, ntt_bn254_r1_oop_fs5)
NTT_BN254_FS(256, 3, 1, 6, ntt_bn254_r1_fs6, ntt_bn254_r1_oop_fs6)
NTT_BN254_FS(256, 3, 1, 7, ntt_bn254_r1_fs7, ntt_bn254_r1_oop_fs7)
NTT_BN254_FS(256, 3, 1, 8, ntt_bn254_r1_fs8, ntt_bn254_r1_oop_fs8)
NTT_BN254_FS(256, 3, 1, 9, ntt_bn254_r1_fs9, ntt_bn254_r1_oop_fs9)
NTT_BN254_FS_SPLIT(256, 3, 1, 6, ntt_bn254_r1s_fs6)
NTT_BN254_FS_SPLIT(256, 3, 1, 7, ntt_bn254_r1s_fs7)
#endif

// ntt_bn254_spread32 is the LDE's spread (ntt_spread, ntt_passes.cu) on
// 32-bit limbs: the coset powers by BN254x32's Montgomery product instead
// of the generic BN254's 64-bit one, which the GPU runs as several 32-bit
// multiply-adds per product and which made the spread a fifth of the LDE
// (H100, LDE ×4 2^22 → 2^24: the spread's products on 2^22 elements).
#if !defined(NTT_ONLY) || defined(NTT_ONLY_bn254)
extern "C" __global__ void ntt_bn254_spread32(Fr8 *dst, u64 dstStride, const Fr8 *src, u64 srcStride, u32 logn,
                                              u32 logb, u32 mode, const Fr8 *pow, u32 tabH) {
    pdl_begin();
    ntt_spread<BN254x32>(dst, dstStride, src, srcStride, logn, logb, mode, pow, tabH);
}
#endif

// ntt_bn254_bitrev_tiled4 is the tiled bit reversal with tiles of 16 × 16
// elements, for columns below 2^16 (gpu/primentt's bitrevSmall): the
// program's ntt_bn254_bitrev_tiled takes 32 × 32 (rows of 1 KiB), faster
// from 2^17 up (H100, BN254 natural order: 2^20 306 -> 290 us, 2^24 4.47
// -> 4.25 ms) but with too few tiles below (2^14: 16.3 -> 26.1 us).
#if !defined(NTT_ONLY) || defined(NTT_ONLY_bn254)
extern "C" __global__ void __launch_bounds__(256) ntt_bn254_bitrev_tiled4(Fr4 *data, u64 colStride, u32 logn) {
    pdl_begin();
    ntt_bitrev_tiled<BN254, 4, 256>(data, colStride, logn);
}
#endif
