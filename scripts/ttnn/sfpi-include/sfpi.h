// bhemu's declaration-only stand-in for sfpi's <sfpi.h> (docs/ttnn.md, "sfpi").
//
// sfpi's vector types (vFloat, vInt, dst_reg, v_if, ...) are a C++ interface to Blackhole's vector
// unit that only Tenstorrent's compiler can lower to machine code. tt-metal's compute kernels
// often *include* the vector-unit headers of every operation (ckernel_sfpu_*.h) while using none of
// them (e.g. ttnn's reduce kernel). This header declares just enough of that interface, with no
// definitions, for such headers to be parsed by stock GCC:
//
// * every type is a distinct empty class that converts from anything and has every operator,
//   declared only; every function and object is declared only (extern, never defined);
// * enumerations are classes whose enumerators are declared static members of no value.
//
// So a kernel that merely includes vector-unit code compiles; a kernel that calls any of it fails,
// at compile time (a value needed in a constant expression) or at link time (an undefined sfpi
// symbol), never silently. The mode constants tt-llk's FPU paths need come from the kernel kit's
// own <sfpi.h> (scripts/kernel-kit/compat/sfpi.h), included next.
#pragma once
#include_next <sfpi.h>
#include <cstdint>
#include <type_traits>
#include <utility>

#ifndef sfpi_inline
#define sfpi_inline inline __attribute__((always_inline))
#endif

namespace sfpi {

struct __vBase {};
struct __rvtt_vec_t;  // the compiler's raw vector register type (.get(), __builtin_rvtt_*)
template <class T>
inline constexpr bool __is_v = std::is_base_of_v<__vBase, std::remove_cv_t<std::remove_reference_t<T>>>;

// One vector-ish class: constructible and assignable from anything, every operator declared.
#define BHEMU_SFPI_CLASS(NAME)                                                  \
    struct NAME : __vBase {                                                     \
        NAME();                                                                 \
        NAME(const NAME&);                                                      \
        template <class A0, class... A>                                         \
        NAME(const A0&, const A&...);                                           \
        NAME& operator=(const NAME&);                                           \
        template <class U>                                                      \
        NAME& operator=(const U&);                                              \
        template <class U>                                                      \
        const NAME& operator=(const U&) const;                                  \
        template <class U> NAME& operator+=(const U&);                          \
        template <class U> NAME& operator-=(const U&);                          \
        template <class U> NAME& operator*=(const U&);                          \
        template <class U> NAME& operator/=(const U&);                          \
        template <class U> NAME& operator&=(const U&);                          \
        template <class U> NAME& operator|=(const U&);                          \
        template <class U> NAME& operator^=(const U&);                          \
        template <class U> NAME& operator<<=(const U&);                         \
        template <class U> NAME& operator>>=(const U&);                         \
        NAME operator-() const;                                                 \
        NAME operator+() const;                                                 \
        NAME operator~() const;                                                 \
        NAME& operator++();                                                     \
        NAME operator++(int) const;                                             \
        NAME& operator--();                                                     \
        NAME operator--(int) const;                                             \
        template <class I>                                                      \
        NAME operator[](const I&) const;                                        \
        template <auto... L, class... A>                                        \
        NAME mode(const A&...) const;                                           \
        __rvtt_vec_t get() const;                                               \
        void in_use() const;                                                    \
    }

BHEMU_SFPI_CLASS(__rvtt_vec_t);
BHEMU_SFPI_CLASS(vFloat);
BHEMU_SFPI_CLASS(vInt);
BHEMU_SFPI_CLASS(vUInt);
BHEMU_SFPI_CLASS(vBool);
BHEMU_SFPI_CLASS(vCond);
BHEMU_SFPI_CLASS(vSMag);
BHEMU_SFPI_CLASS(vSMag8);
BHEMU_SFPI_CLASS(vSMag16);
BHEMU_SFPI_CLASS(vMag);
BHEMU_SFPI_CLASS(vUInt8);
BHEMU_SFPI_CLASS(vUInt16);
BHEMU_SFPI_CLASS(vFloat16a);
BHEMU_SFPI_CLASS(vFloat16b);
BHEMU_SFPI_CLASS(sFloat16a);
BHEMU_SFPI_CLASS(sFloat16b);
BHEMU_SFPI_CLASS(vLut8si);
BHEMU_SFPI_CLASS(vLut16ii);
BHEMU_SFPI_CLASS(vLut16ss);
BHEMU_SFPI_CLASS(vLut16si);
BHEMU_SFPI_CLASS(__vDReg);
BHEMU_SFPI_CLASS(__vRegFile);
BHEMU_SFPI_CLASS(__vConstFloat);
BHEMU_SFPI_CLASS(__vConstInt);
BHEMU_SFPI_CLASS(lreg_pressure);
#undef BHEMU_SFPI_CLASS

// The value type an operand stands for in arithmetic.
template <class T> struct __val { using type = std::remove_cv_t<std::remove_reference_t<T>>; };
template <> struct __val<__vDReg> { using type = vFloat; };
template <> struct __val<__vRegFile> { using type = vFloat; };
template <> struct __val<__vConstFloat> { using type = vFloat; };
template <> struct __val<__vConstInt> { using type = vInt; };
template <class A, class B>
using __res_t = typename __val<std::conditional_t<__is_v<A>, A, B>>::type;

#define BHEMU_SFPI_BINOP(OP, ...)                                                          \
    template <class A, class B, std::enable_if_t<__is_v<A> || __is_v<B>, int> = 0>         \
    __VA_ARGS__ operator OP(const A&, const B&)
BHEMU_SFPI_BINOP(+, __res_t<A, B>);
BHEMU_SFPI_BINOP(-, __res_t<A, B>);
BHEMU_SFPI_BINOP(*, __res_t<A, B>);
BHEMU_SFPI_BINOP(/, __res_t<A, B>);
BHEMU_SFPI_BINOP(%, __res_t<A, B>);
BHEMU_SFPI_BINOP(&, __res_t<A, B>);
BHEMU_SFPI_BINOP(|, __res_t<A, B>);
BHEMU_SFPI_BINOP(^, __res_t<A, B>);
BHEMU_SFPI_BINOP(<<, __res_t<A, B>);
BHEMU_SFPI_BINOP(>>, __res_t<A, B>);
BHEMU_SFPI_BINOP(==, vCond);
BHEMU_SFPI_BINOP(!=, vCond);
BHEMU_SFPI_BINOP(<, vCond);
BHEMU_SFPI_BINOP(>, vCond);
BHEMU_SFPI_BINOP(<=, vCond);
BHEMU_SFPI_BINOP(>=, vCond);
BHEMU_SFPI_BINOP(&&, vCond);
BHEMU_SFPI_BINOP(||, vCond);
#undef BHEMU_SFPI_BINOP
template <class A, std::enable_if_t<__is_v<A>, int> = 0>
vCond operator!(const A&);

// Enumerations. C++17 kernels use them as template parameters, so they are real enumerations;
// their values are not sfpi's: they start at 0xB4E30000, a value no instruction field holds, so
// that one ending up in emitted code (where nothing of sfpi should be) stands out.
#define BHEMU_SFPI_ENUM(NAME, FIRST, ...) enum class NAME : unsigned { FIRST = 0xB4E30000u, __VA_ARGS__ }
BHEMU_SFPI_ENUM(DataLayout, Default, F16a, F16b, F32, FSrcB, I32, M32, None, ROW_MAJOR, SM16, SM32, SM8, TILE,
                U16, U32, U8);
BHEMU_SFPI_ENUM(ExponentMode, Biased, Unbiased, Debiased);
BHEMU_SFPI_ENUM(LRegs, LReg0, LReg1, LReg2, LReg3, LReg4, LReg5, LReg6, LReg7, LRegCount);
BHEMU_SFPI_ENUM(LutSign, Retain, Update);
BHEMU_SFPI_ENUM(RoundMode, Nearest, NearestAway, NearestEven, NearestStochastic, Stochastic, Truncate);
BHEMU_SFPI_ENUM(ShiftMode, Arithmetic, Logical);
BHEMU_SFPI_ENUM(MantissaMode, ImplicitOne, NoImplicitOne);
BHEMU_SFPI_ENUM(FractionalHalf, High, Low);
#undef BHEMU_SFPI_ENUM

// Register files and constant registers.
extern __vRegFile dst_reg;
extern __vRegFile l_reg;
extern __vConstFloat vConst0, vConst1, vConstNeg1, vConst0p8373, vConstLn2, vConst1Ln2, vConstFloatPrgm0,
    vConstFloatPrgm1, vConstFloatPrgm2;
extern __vConstInt vConstIntPrgm0, vConstIntPrgm1, vConstIntPrgm2, vConstTileId;

// Instruction modifier constants: declared, no values (a use that needs one does not compile).
extern const unsigned SFP_DESTREG_STRIDE, SFPABS_MOD1_INT, SFPABS_MOD1_FLOAT, SFPARECIP_MOD1_RECIP,
    SFPARECIP_MOD1_EXP, SFPCAST_MOD1_INT32_TO_FP32_RNE, SFPCAST_MOD1_INT32_TO_FP32_RNS,
    SFPEXEXP_MOD1_SET_CC_COMP_EXP, SFPEXEXP_MOD1_SET_CC_SGN_EXP, SFPEXEXP_MOD1_SET_CC_SGN_COMP_EXP,
    SFPEXEXP_MOD1_DEBIAS, SFPEXEXP_MOD1_NODEBIAS, SFPEXMAN_MOD1_PAD8, SFPEXMAN_MOD1_PAD9,
    SFPIADD_MOD1_ARG_LREG_DST, SFPIADD_MOD1_ARG_IMM, SFPIADD_MOD1_ARG_2SCOMP_LREG_DST, SFPIADD_MOD1_CC_LT0,
    SFPIADD_MOD1_CC_NONE, SFPIADD_MOD1_CC_GTE0, SFPMAD_MOD1_OFFSET_NONE, SFPMUL24_MOD1_LOWER,
    SFPMUL24_MOD1_UPPER, SFPSETCC_MOD1_LREG_EQ0, SFPSETCC_MOD1_LREG_GTE0, SFPSETCC_MOD1_LREG_LT0,
    SFPSETCC_MOD1_LREG_NE0, SFPSHFT2_MOD1_SHFT_IMM, SFPSHFT2_MOD1_SHFT_LREG, SFPSHFT2_MOD1_SUBVEC_SHFLROR1,
    SFPSTOCHRND_MOD1_FP32_TO_FP16B, SFPSTOCHRND_MOD1_FP32_TO_FP16A, SFPSTOCHRND_MOD1_FP32_TO_INT8,
    SFPSTOCHRND_MOD1_FP32_TO_UINT16, SFPSTOCHRND_MOD1_FP32_TO_INT16, SFPSTOCHRND_MOD1_FP32_TO_UINT8,
    SFPSTOCHRND_RND_EVEN, SFPSTOCHRND_RND_STOCH, SFPSWAP_MOD1_SWAP, SFPSWAP_MOD1_VEC_MIN_MAX,
    SFPLZ_MOD1_CC_NE0, SFPLZ_MOD1_CC_EQ0, SFPLZ_MOD1_NOSGN_CC_NE0;

// Functions: any arguments, declared only. Those taking a result type first: as<T>, convert<T>,
// reinterpret<T>.
#define BHEMU_SFPI_FN(R, NAME) \
    template <class... A>      \
    R NAME(const A&...)
BHEMU_SFPI_FN(vFloat, abs);
BHEMU_SFPI_FN(vFloat, setsgn);
BHEMU_SFPI_FN(vFloat, setexp);
BHEMU_SFPI_FN(vFloat, setman);
BHEMU_SFPI_FN(vFloat, addexp);
BHEMU_SFPI_FN(vFloat, copysgn);
BHEMU_SFPI_FN(vFloat, setsgn2);
BHEMU_SFPI_FN(vFloat, nearby);
BHEMU_SFPI_FN(vFloat, clamp);
BHEMU_SFPI_FN(vFloat, symmetric_clamp);
BHEMU_SFPI_FN(vInt, fractional_mul);
template <class... A>
std::pair<vFloat, vFloat> min_max(const A&...);
BHEMU_SFPI_FN(vFloat, lut);
BHEMU_SFPI_FN(vFloat, lut2);
BHEMU_SFPI_FN(vFloat, lut2_sign);
BHEMU_SFPI_FN(vFloat, s2vFloat16);
BHEMU_SFPI_FN(vFloat, s2vFloat16a);
BHEMU_SFPI_FN(vFloat, s2vFloat16b);
BHEMU_SFPI_FN(vFloat, float_to_fp16a);
BHEMU_SFPI_FN(vFloat, float_to_fp16b);
BHEMU_SFPI_FN(vFloat, int32_to_float);
BHEMU_SFPI_FN(vFloat, approx_recip);
BHEMU_SFPI_FN(vFloat, approx_exp);
BHEMU_SFPI_FN(vInt, exexp);
BHEMU_SFPI_FN(vInt, exexp_nodebias);
BHEMU_SFPI_FN(vInt, exman);
BHEMU_SFPI_FN(vInt, exman8);
BHEMU_SFPI_FN(vInt, exman9);
BHEMU_SFPI_FN(vInt, lz);
BHEMU_SFPI_FN(vInt, lz_nosgn);
BHEMU_SFPI_FN(vInt, float_to_int16);
BHEMU_SFPI_FN(vUInt, float_to_uint16);
BHEMU_SFPI_FN(vInt, float_to_int8);
BHEMU_SFPI_FN(vUInt, float_to_uint8);
BHEMU_SFPI_FN(vUInt, shft);
BHEMU_SFPI_FN(void, vec_min_max);
BHEMU_SFPI_FN(void, vec_swap);
BHEMU_SFPI_FN(void, subvec_transp);
BHEMU_SFPI_FN(vFloat, subvec_shflror1);
BHEMU_SFPI_FN(vFloat, subvec_shflshr1);
BHEMU_SFPI_FN(vCond, is_inf);
BHEMU_SFPI_FN(vCond, is_nan);
BHEMU_SFPI_FN(vCond, is_finite);
BHEMU_SFPI_FN(vCond, is_pos);
BHEMU_SFPI_FN(vCond, is_neg);
BHEMU_SFPI_FN(void, __cc);
#undef BHEMU_SFPI_FN
template <class... A, std::enable_if_t<(__is_v<A> || ...), int> = 0>
vFloat min(const A&...);
template <class... A, std::enable_if_t<(__is_v<A> || ...), int> = 0>
vFloat max(const A&...);
template <class T, class... A>
T as(const A&...);
template <class T, class... A>
T convert(const A&...);
template <class T, class... A>
T reinterpret(const A&...);

}  // namespace sfpi

// The compiler's vector builtins that kernels call directly.
template <class... A>
sfpi::__rvtt_vec_t __builtin_rvtt_sfpmad(const A&...);
template <class... A>
sfpi::__rvtt_vec_t __builtin_rvtt_sfpgt(const A&...);

// Predicated execution: blocks whose condition only type-checks.
#define v_if(x) { ::sfpi::__cc(x); {
#define v_elseif(x) } ::sfpi::__cc(x); {
#define v_else } {
#define v_endif } }
#define v_block {
#define v_endblock }
#define v_and(x) ::sfpi::__cc(x)
