// Small 3-vector and 3x3 matrix for positions, cells and rotations (float64).
#pragma once
#include <array>
#include <cmath>

namespace nanoscatter {

struct Vec3 {
  double x = 0, y = 0, z = 0;
  constexpr Vec3() = default;
  constexpr Vec3(double x_, double y_, double z_) : x(x_), y(y_), z(z_) {}
  constexpr double operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
  constexpr double& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
  constexpr Vec3& operator+=(const Vec3& o) { x += o.x; y += o.y; z += o.z; return *this; }
  constexpr Vec3& operator-=(const Vec3& o) { x -= o.x; y -= o.y; z -= o.z; return *this; }
  constexpr Vec3& operator*=(double s) { x *= s; y *= s; z *= s; return *this; }
};

constexpr Vec3 operator+(Vec3 a, const Vec3& b) { return a += b; }
constexpr Vec3 operator-(Vec3 a, const Vec3& b) { return a -= b; }
constexpr Vec3 operator-(const Vec3& a) { return {-a.x, -a.y, -a.z}; }
constexpr Vec3 operator*(Vec3 a, double s) { return a *= s; }
constexpr Vec3 operator*(double s, Vec3 a) { return a *= s; }
constexpr Vec3 operator/(Vec3 a, double s) { return a *= (1.0 / s); }
constexpr double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
constexpr Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double norm(const Vec3& a) { return std::sqrt(dot(a, a)); }
inline bool is_finite(const Vec3& a) {
  return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z);
}

// Row-major 3x3 matrix; m[i] is row i.
struct Mat3 {
  std::array<Vec3, 3> row{Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}};
  static Mat3 identity() { return Mat3{}; }
  static Mat3 from_columns(const Vec3& a, const Vec3& b, const Vec3& c) {
    Mat3 m;
    m.row = {Vec3{a.x, b.x, c.x}, Vec3{a.y, b.y, c.y}, Vec3{a.z, b.z, c.z}};
    return m;
  }
  Vec3 column(int j) const { return {row[0][j], row[1][j], row[2][j]}; }
};

inline Vec3 operator*(const Mat3& m, const Vec3& v) {
  return {dot(m.row[0], v), dot(m.row[1], v), dot(m.row[2], v)};
}
inline Mat3 operator*(const Mat3& a, const Mat3& b) {
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.row[i][j] = dot(a.row[i], b.column(j));
  return r;
}
inline Mat3 transpose(const Mat3& m) { return Mat3::from_columns(m.row[0], m.row[1], m.row[2]); }
inline double determinant(const Mat3& m) { return dot(m.row[0], cross(m.row[1], m.row[2])); }
Mat3 inverse(const Mat3& m);

}  // namespace nanoscatter
