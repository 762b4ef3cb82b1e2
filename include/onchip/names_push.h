/* onchip/names_push.h -- the start of every kit header: the short macro names a user's code often
 * defines (N, M, P, T, V, R, B, W, H, BLOCK, TILE) are saved and undefined, so that the kit's own
 * identifiers of those names (template parameters, locals) read as written; onchip/names_pop.h, at
 * the end of the header, gives them back.  The pairs nest: a kit header that includes another
 * restores nothing until its own end.  The generators (the *_DEFINE macros) expand in the user's
 * code, after names_pop.h, and so use none of these names in their bodies.
 *
 * #pragma push_macro / pop_macro: gcc, clang, MSVC and nvcc.  NVRTC has no push_macro: there a
 * kit header refuses to compile while one of these names is a macro (#undef it before the kit's
 * headers, or define it after them).  No include guard: included at the start of every header,
 * again by each header that a header includes. */
#ifndef __CUDACC_RTC__
#pragma push_macro("N")
#pragma push_macro("M")
#pragma push_macro("P")
#pragma push_macro("T")
#pragma push_macro("V")
#pragma push_macro("R")
#pragma push_macro("B")
#pragma push_macro("W")
#pragma push_macro("H")
#pragma push_macro("BLOCK")
#pragma push_macro("TILE")
#undef N
#undef M
#undef P
#undef T
#undef V
#undef R
#undef B
#undef W
#undef H
#undef BLOCK
#undef TILE
#elif defined(N) || defined(M) || defined(P) || defined(T) || defined(V) || defined(R) || defined(B) || \
    defined(W) || defined(H) || defined(BLOCK) || defined(TILE)
#error "onchip: under NVRTC a kit header cannot set aside a macro named N, M, P, T, V, R, B, W, H, BLOCK or TILE: #undef it before the kit's headers or define it after them"
#endif
