/* tests/snippets/fail_fixture.cuh -- two EXAMPLE blocks that tools/check-snippets must refuse
 * (run-tests checks that it names both lines).
 *
 * EXAMPLE (a kernel body that reads an undeclared name)
 *   [compile in a kernel: float *out]
 *   out[threadIdx.x] = undeclared_name;
 *
 * LIMITS: none.
 */
/*
 * EXAMPLE (no marker)
 *   int x = 1;
 */
