#include "dda/matvec_cuda.cuh"

#include <algorithm>
#include <type_traits>

#include "nanoscatter/error.hpp"

namespace nanoscatter::dda {

namespace {

constexpr int kTile = 32;
constexpr int kRows = 8;

template <class C>
__device__ __forceinline__ C cmul(C a, C b) {
  return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}
template <class C>
__device__ __forceinline__ C cadd(C a, C b) {
  return {a.x + b.x, a.y + b.y};
}
template <class C>
__device__ __forceinline__ C cneg(C a) {
  return {-a.x, -a.y};
}

// X[c][k][j][i] = S_p · in[3p + c] (conj(in) for A^H), formed in double and
// rounded to the FFT precision
template <class C>
__global__ void scatter_kernel(const std::uint16_t* pos, const cufftDoubleComplex* s, const cufftDoubleComplex* in,
                               C* x, std::size_t n, int gx, int by, int bz, bool conj_in) {
  using R = decltype(C{}.x);
  const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (p >= n) return;
  const std::size_t plane = static_cast<std::size_t>(by) * gx, comp = plane * bz;
  const std::size_t idx = pos[3 * p + 2] * plane + static_cast<std::size_t>(pos[3 * p + 1]) * gx + pos[3 * p];
  const cufftDoubleComplex sp = s[p];
  for (int c = 0; c < 3; ++c) {
    cufftDoubleComplex v = in[3 * p + c];
    if (conj_in) v.y = -v.y;
    const cufftDoubleComplex w = cmul(sp, v);
    x[c * comp + idx] = C{static_cast<R>(w.x), static_cast<R>(w.y)};
  }
}

// out = in + S_p · X in double (conj for A^H)
template <class C>
__global__ void gather_kernel(const std::uint16_t* pos, const cufftDoubleComplex* s, const cufftDoubleComplex* in,
                              const C* x, cufftDoubleComplex* out, std::size_t n, int gx, int by, int bz,
                              bool hermitian) {
  const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (p >= n) return;
  const std::size_t plane = static_cast<std::size_t>(by) * gx, comp = plane * bz;
  const std::size_t idx = pos[3 * p + 2] * plane + static_cast<std::size_t>(pos[3 * p + 1]) * gx + pos[3 * p];
  const cufftDoubleComplex sp = s[p];
  for (int c = 0; c < 3; ++c) {
    cufftDoubleComplex v = in[3 * p + c];
    if (hermitian) v.y = -v.y;  // A^H y = conj(A conj y): the input was conjugated in scatter
    const C xv = x[c * comp + idx];
    cufftDoubleComplex r = cadd(v, cmul(sp, cufftDoubleComplex{xv.x, xv.y}));
    if (hermitian) r.y = -r.y;
    out[3 * p + c] = r;
  }
}

// The double interaction FFT rounded to float.
__global__ void round_kernel(const cufftDoubleComplex* in, cufftComplex* out, std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = cufftComplex{static_cast<float>(in[i].x), static_cast<float>(in[i].y)};
}

// Batched tiled transpose with zero padding: for every batch (b1, b2) plane,
//   out[r][c] = (c < in_rows && r < in_cols) ? in[c][r] : 0,  r < out_rows, c < out_cols.
struct TransposeShape {
  int in_rows, in_cols;
  long long in_rp, in_p1, in_p2;
  int out_rows, out_cols;
  long long out_rp, out_p1, out_p2;
  int n2;
};

template <class C>
__global__ void transpose_kernel(const C* __restrict__ in, C* __restrict__ out, TransposeShape t) {
  __shared__ C tile[kTile][kTile + 1];
  const int b = blockIdx.z;
  const int b1 = b / t.n2, b2 = b % t.n2;
  const C* src = in + b1 * t.in_p1 + b2 * t.in_p2;
  C* dst = out + b1 * t.out_p1 + b2 * t.out_p2;
  const int c0 = blockIdx.x * kTile;  // output column block = input row block
  const int r0 = blockIdx.y * kTile;  // output row block = input column block
  for (int i = threadIdx.y; i < kTile; i += kRows) {
    const int ir = c0 + i, ic = r0 + threadIdx.x;
    C v{0, 0};
    if (ir < t.in_rows && ic < t.in_cols) v = src[ir * t.in_rp + ic];
    tile[i][threadIdx.x] = v;
  }
  __syncthreads();
  for (int i = threadIdx.y; i < kTile; i += kRows) {
    const int orow = r0 + i, ocol = c0 + threadIdx.x;
    if (orow < t.out_rows && ocol < t.out_cols) dst[orow * t.out_rp + ocol] = tile[threadIdx.x][i];
  }
}

// Product with the 3×3 interaction blocks on Z = [c][x][y][z].
template <class C>
__global__ void multiply_kernel(C* z3, const C* __restrict__ dt, int gx, int gy, int gz, int dsy, int dsz) {
  const std::size_t total = static_cast<std::size_t>(gx) * gy * gz;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= total) return;
  const int z = static_cast<int>(i % gz);
  const int y = static_cast<int>((i / gz) % gy);
  const int x = static_cast<int>(i / (static_cast<std::size_t>(gz) * gy));
  const bool yr = y >= dsy, zr = z >= dsz;
  const int yy = yr ? gy - y : y, zz = zr ? gz - z : z;
  const C* d = dt + ((static_cast<std::size_t>(x) * dsz + zz) * dsy + yy) * 6;
  const C dxx = d[0], dyy = d[3], dzz = d[5];
  C dxy = d[1], dxz = d[2], dyz = d[4];
  if (yr) dxy = cneg(dxy);
  if (zr) dxz = cneg(dxz);
  if (yr != zr) dyz = cneg(dyz);
  const C a = z3[i], b = z3[total + i], e = z3[2 * total + i];
  z3[i] = cadd(cadd(cmul(dxx, a), cmul(dxy, b)), cmul(dxz, e));
  z3[total + i] = cadd(cadd(cmul(dxy, a), cmul(dyy, b)), cmul(dyz, e));
  z3[2 * total + i] = cadd(cadd(cmul(dxz, a), cmul(dyz, b)), cmul(dzz, e));
}

template <class C>
void transpose(const C* in, C* out, const TransposeShape& t, int n1) {
  const dim3 block(kTile, kRows);
  const dim3 grid((t.out_cols + kTile - 1) / kTile, (t.out_rows + kTile - 1) / kTile, n1 * t.n2);
  if (n1 * t.n2 > 65535) fail("DDA CUDA: too many transpose planes (", n1 * t.n2, ")");
  transpose_kernel<<<grid, block>>>(in, out, t);
  NS_CUDA_CHECK_LAUNCH();
}

cufftHandle make_plan(long long n, long long batch, cufftType type, std::size_t* work) {
  cufftHandle h;
  NS_CUFFT_CHECK(cufftCreate(&h));
  NS_CUFFT_CHECK(cufftSetAutoAllocation(h, 0));
  long long nn[1] = {n};
  std::size_t ws = 0;
  NS_CUFFT_CHECK(cufftMakePlanMany64(h, 1, nn, nullptr, 1, n, nullptr, 1, n, type, batch, &ws));
  *work = std::max(*work, ws);
  return h;
}

}  // namespace

template <class Real>
CudaMatvec<Real>::CudaMatvec(const MatrixSpec& spec, const Shared* borrow) : box_(spec.box), grid_(spec.grid) {
  n_ = spec.position.size();
  const int gx = grid_[0], gy = grid_[1], gz = grid_[2], by = box_[1], bz = box_[2];
  dsize_y_ = gy / 2 + 1;
  dsize_z_ = gz / 2 + 1;
  std::vector<std::uint16_t> pos(3 * n_);
  for (std::size_t i = 0; i < n_; ++i)
    for (int a = 0; a < 3; ++a) pos[3 * i + a] = spec.position[i][a];
  pos_ = DeviceBuffer<std::uint16_t>(pos);
  std::vector<V> s(n_);
  for (std::size_t i = 0; i < n_; ++i) s[i] = V{spec.s[i].real(), spec.s[i].imag()};
  s_ = DeviceBuffer<V>(s);
  const std::size_t xsize = 3ull * bz * by * gx, ysize = 3ull * gx * bz * gy, zsize = 3ull * gx * gy * gz;
  // The interaction first: its double-precision full-grid work array is freed
  // before the FFT buffers are allocated, so the two never coexist.
  const std::size_t dsize = static_cast<std::size_t>(gx) * dsize_y_ * dsize_z_ * 6;
  dt_ = DeviceBuffer<C>(dsize);
  if (borrow && borrow->dt) {
    if constexpr (std::is_same_v<Real, float>) {
      round_kernel<<<static_cast<unsigned>((dsize + 255) / 256), 256>>>(borrow->dt, dt_.data(), dsize);
      NS_CUDA_CHECK_LAUNCH();
    } else {
      NS_CUDA_CHECK(cudaMemcpy(dt_.data(), borrow->dt, dsize * sizeof(C), cudaMemcpyDeviceToDevice));
    }
  } else {
    interaction_fft_device<Real>(box_, grid_, spec.k, spec.d, dt_.data());
  }
  const std::size_t abytes = std::max(xsize, zsize) * sizeof(C), bbytes = ysize * sizeof(C);
  if (borrow && borrow->a && borrow->a_bytes >= abytes && borrow->b && borrow->b_bytes >= bbytes) {
    a_ptr_ = static_cast<C*>(borrow->a);
    b_ptr_ = static_cast<C*>(borrow->b);
  } else {
    a_ = DeviceBuffer<C>(std::max(xsize, zsize));
    b_ = DeviceBuffer<C>(ysize);
    a_ptr_ = a_.data();
    b_ptr_ = b_.data();
  }
  std::size_t ws = 0;
  plan_x_ = make_plan(gx, 3ll * bz * by, CudaTypes<Real>::kType, &ws);
  plan_y_ = make_plan(gy, 3ll * gx * bz, CudaTypes<Real>::kType, &ws);
  plan_z_ = make_plan(gz, 3ll * gx * gy, CudaTypes<Real>::kType, &ws);
  if (borrow && borrow->work && borrow->work_bytes >= ws) {
    work_ptr_ = borrow->work;
    work_bytes_ = borrow->work_bytes;
  } else {
    work_ = DeviceBuffer<char>(std::max<std::size_t>(ws, 1));
    work_ptr_ = work_.data();
    work_bytes_ = work_.size();
  }
  for (cufftHandle h : {plan_x_, plan_y_, plan_z_}) NS_CUFFT_CHECK(cufftSetWorkArea(h, work_ptr_));
}

template <class Real>
CudaMatvec<Real>::~CudaMatvec() {
  for (cufftHandle h : {plan_x_, plan_y_, plan_z_})
    if (h) cufftDestroy(h);
}

template <class Real>
std::size_t CudaMatvec<Real>::bytes() const {
  return (a_.size() + b_.size() + dt_.size()) * sizeof(C) + s_.size() * sizeof(V) + pos_.size() * 2 + work_.size();
}

template <class Real>
typename CudaMatvec<Real>::Shared CudaMatvec<Real>::shared() const {
  Shared sh;
  sh.a = a_ptr_;
  sh.b = b_ptr_;
  sh.work = work_ptr_;
  sh.a_bytes = a_.size() * sizeof(C);
  sh.b_bytes = b_.size() * sizeof(C);
  sh.work_bytes = work_bytes_;
  if constexpr (std::is_same_v<Real, double>) sh.dt = dt_.data();
  return sh;
}

template <class Real>
void CudaMatvec<Real>::fft(cufftHandle plan, C* data, int direction) {
  if constexpr (std::is_same_v<Real, float>)
    NS_CUFFT_CHECK(cufftExecC2C(plan, data, data, direction));
  else
    NS_CUFFT_CHECK(cufftExecZ2Z(plan, data, data, direction));
}

template <class Real>
void CudaMatvec<Real>::apply(const V* in, V* out, bool hermitian) {
  const int gx = grid_[0], gy = grid_[1], gz = grid_[2], by = box_[1], bz = box_[2];
  const int threads = 256;
  const unsigned blocks = static_cast<unsigned>((n_ + threads - 1) / threads);
  C* xa = a_ptr_;
  C* yb = b_ptr_;
  const std::size_t xsize = 3ull * bz * by * gx;
  NS_CUDA_CHECK(cudaMemsetAsync(xa, 0, xsize * sizeof(C)));
  scatter_kernel<<<blocks, threads>>>(pos_.data(), s_.data(), in, xa, n_, gx, by, bz, hermitian);
  NS_CUDA_CHECK_LAUNCH();
  fft(plan_x_, xa, CUFFT_FORWARD);
  // X [c][k][j<by][i] → Y [c][i][k][j<gy] (zero for j ≥ by); planes (c, k)
  const long long gyz_b = 1ll * bz * gy;
  transpose(xa, yb,
            TransposeShape{by, gx, gx, 1ll * bz * by * gx, 1ll * by * gx, gx, gy, gyz_b, 1ll * gx * bz * gy, gy, bz},
            3);
  fft(plan_y_, yb, CUFFT_FORWARD);
  // Y [c][i][k<bz][y] → Z [c][i][y][z<gz] (zero for z ≥ bz); planes (c, i)
  transpose(yb, xa,
            TransposeShape{bz, gy, gy, 1ll * gx * bz * gy, 1ll * bz * gy, gy, gz, gz, 1ll * gx * gy * gz,
                           1ll * gy * gz, gx},
            3);
  fft(plan_z_, xa, CUFFT_FORWARD);
  const std::size_t total = static_cast<std::size_t>(gx) * gy * gz;
  multiply_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(xa, dt_.data(), gx, gy, gz, dsize_y_,
                                                                        dsize_z_);
  NS_CUDA_CHECK_LAUNCH();
  fft(plan_z_, xa, CUFFT_INVERSE);
  // Z [c][i][y][z<bz] → Y [c][i][k][y]
  transpose(xa, yb,
            TransposeShape{gy, gz, gz, 1ll * gx * gy * gz, 1ll * gy * gz, bz, gy, gy, 1ll * gx * bz * gy,
                           1ll * bz * gy, gx},
            3);
  fft(plan_y_, yb, CUFFT_INVERSE);
  // Y [c][i][k][j<by] → X [c][k][j][i]; planes (c, k)
  transpose(yb, xa,
            TransposeShape{gx, gy, gyz_b, 1ll * gx * bz * gy, gy, by, gx, gx, 1ll * bz * by * gx, 1ll * by * gx, bz},
            3);
  fft(plan_x_, xa, CUFFT_INVERSE);
  gather_kernel<<<blocks, threads>>>(pos_.data(), s_.data(), in, xa, out, n_, gx, by, bz, hermitian);
  NS_CUDA_CHECK_LAUNCH();
}

namespace {

// G component c at every point of the padded grid (double), zero at the
// origin and outside the displacement range |Δ| < box.
__global__ void green_kernel(cufftDoubleComplex* g, int comp, int bx, int by, int bz, int gx, int gy, int gz, double k,
                             double d) {
  const std::size_t total = static_cast<std::size_t>(gx) * gy * gz;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= total) return;
  const int x = static_cast<int>(i % gx), y = static_cast<int>((i / gx) % gy),
            z = static_cast<int>(i / (static_cast<std::size_t>(gx) * gy));
  auto disp = [](int v, int b, int gsz, bool* ok) {
    if (v < b) return v;
    if (v > gsz - b) return v - gsz;
    *ok = false;
    return 0;
  };
  bool ok = true;
  const int dx = disp(x, bx, gx, &ok), dy = disp(y, by, gy, &ok), dz = disp(z, bz, gz, &ok);
  cufftDoubleComplex v{0, 0};
  if (ok && (dx || dy || dz)) {
    const double rx = dx * d, ry = dy * d, rz = dz * d;
    const double r = sqrt(rx * rx + ry * ry + rz * rz);
    const double q[3] = {rx / r, ry / r, rz / r};
    const double kr = k * r, kr2 = kr * kr;
    double sn, cs;
    sincos(kr, &sn, &cs);
    const double inv3 = 1 / (r * r * r);
    const double er = cs * inv3, ei = sn * inv3;  // e^{ikr}/r³
    const int ia[6] = {0, 0, 0, 1, 1, 2}, ib[6] = {0, 1, 2, 1, 2, 2};
    const double qq = q[ia[comp]] * q[ib[comp]];
    const bool diag = ia[comp] == ib[comp];
    // (k²r² − 1 + ikr) δ + (3 − k²r² − 3ikr) q q
    const double tr = (diag ? kr2 - 1 : 0) + (3 - kr2) * qq;
    const double ti = (diag ? kr : 0) - 3 * kr * qq;
    v = {er * tr - ei * ti, er * ti + ei * tr};
  }
  g[i] = v;
}

template <class C>
__global__ void reduce_store_kernel(const cufftDoubleComplex* g, C* out, int comp, int gx, int gy, int gz, int dsy,
                                    int dsz, double scale) {
  const std::size_t total = static_cast<std::size_t>(gx) * dsy * dsz;
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= total) return;
  const int y = static_cast<int>(i % dsy), z = static_cast<int>((i / dsy) % dsz),
            x = static_cast<int>(i / (static_cast<std::size_t>(dsy) * dsz));
  const cufftDoubleComplex v = g[(static_cast<std::size_t>(z) * gy + y) * gx + x];
  using R = decltype(C{}.x);
  out[i * 6 + comp] = C{static_cast<R>(scale * v.x), static_cast<R>(scale * v.y)};
}

}  // namespace

template <class Real>
void interaction_fft_device(const std::array<int, 3>& box, const std::array<int, 3>& grid, double k, double d,
                            typename CudaTypes<Real>::C* out) {
  const int gx = grid[0], gy = grid[1], gz = grid[2];
  const std::size_t total = static_cast<std::size_t>(gx) * gy * gz;
  DeviceBuffer<cufftDoubleComplex> g(total);
  cufftHandle plan;
  NS_CUFFT_CHECK(cufftPlan3d(&plan, gz, gy, gx, CUFFT_Z2Z));  // x fastest
  const int dsy = gy / 2 + 1, dsz = gz / 2 + 1;
  const std::size_t reduced = static_cast<std::size_t>(gx) * dsy * dsz;
  for (int c = 0; c < 6; ++c) {
    green_kernel<<<static_cast<unsigned>((total + 255) / 256), 256>>>(g.data(), c, box[0], box[1], box[2], gx, gy,
                                                                      gz, k, d);
    NS_CUDA_CHECK_LAUNCH();
    NS_CUFFT_CHECK(cufftExecZ2Z(plan, g.data(), g.data(), CUFFT_FORWARD));
    reduce_store_kernel<<<static_cast<unsigned>((reduced + 255) / 256), 256>>>(g.data(), out, c, gx, gy, gz, dsy, dsz,
                                                                               -1.0 / static_cast<double>(total));
    NS_CUDA_CHECK_LAUNCH();
  }
  NS_CUDA_CHECK(cudaDeviceSynchronize());
  cufftDestroy(plan);
}

template class CudaMatvec<float>;
template class CudaMatvec<double>;
template void interaction_fft_device<float>(const std::array<int, 3>&, const std::array<int, 3>&, double, double,
                                            cufftComplex*);
template void interaction_fft_device<double>(const std::array<int, 3>&, const std::array<int, 3>&, double, double,
                                             cufftDoubleComplex*);

}  // namespace nanoscatter::dda
