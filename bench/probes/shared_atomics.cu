// Probe: shared-memory atomics per "pair" on this GPU: one 32-bit word, two
// 32-bit words (two rings), one 64-bit word. Not part of the project.
#include <cstdio>
#include <cuda_runtime.h>
constexpr int W = 12288;
template <int Mode>
__global__ void k(unsigned long long* out, int iters, unsigned seed) {
  extern __shared__ unsigned char smem[];
  unsigned* r32 = reinterpret_cast<unsigned*>(smem);
  unsigned long long* r64 = reinterpret_cast<unsigned long long*>(smem);
  for (int i = threadIdx.x; i < 2 * W; i += blockDim.x) r32[i] = 0;
  __syncthreads();
  unsigned x = seed ^ (threadIdx.x * 2654435761u) ^ (blockIdx.x * 40503u);
  unsigned base = (threadIdx.x * 37) % W;
  for (int i = 0; i < iters; ++i) {
    x = x * 1664525u + 1013904223u;
    const unsigned slot = (base + (x >> 22)) % W;  // spread over ~1024 bins near base
    if (Mode == 0) atomicAdd(r32 + slot, x & 0xffu);
    else if (Mode == 1) { atomicAdd(r32 + slot, x & 0xffu); atomicAdd(r32 + W + slot, (x >> 8) & 0xffu); }
    else atomicAdd(r64 + slot, (unsigned long long)(x & 0xffu) << 32 | ((x >> 8) & 0xffu));
    base += (i & 255) == 255;
  }
  __syncthreads();
  unsigned long long s = 0;
  for (int i = threadIdx.x; i < W; i += blockDim.x) s += Mode == 2 ? r64[i] : r32[i] + r32[W + i];
  atomicAdd(out, s);
}
template <int Mode>
float run(int blocks, int iters) {
  unsigned long long* out;
  cudaMalloc(&out, 8);
  const size_t sh = 2 * W * sizeof(unsigned);
  cudaFuncSetAttribute(k<Mode>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(sh));
  k<Mode><<<blocks, 1024, sh>>>(out, iters, 1);
  cudaEvent_t a, b;
  cudaEventCreate(&a); cudaEventCreate(&b);
  cudaEventRecord(a);
  k<Mode><<<blocks, 1024, sh>>>(out, iters, 2);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms; cudaEventElapsedTime(&ms, a, b);
  cudaFree(out);
  return ms;
}
int main() {
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  const int blocks = p.multiProcessorCount, iters = 20000;
  const double pairs = double(blocks) * 1024 * iters;
  const char* names[] = {"one u32", "two u32", "one u64"};
  float ms[3] = {run<0>(blocks, iters), run<1>(blocks, iters), run<2>(blocks, iters)};
  printf("%s, %d SMs, %d threads x %d pairs each\n", p.name, blocks, 1024, iters);
  for (int m = 0; m < 3; ++m) printf("%-8s %8.3f ms  %.3e pairs/s\n", names[m], ms[m], pairs / (ms[m] * 1e-3));
  printf("cuobjdump: "); fflush(stdout);
  return 0;
}
