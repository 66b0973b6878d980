// ConstVectorRef: the read-only view every system and observer receives. It must alias what it
// views (a copy would hide writes to the state and cost an allocation per call) and refuse what
// it cannot view without a copy.
#include <type_traits>

#include <boost/test/unit_test.hpp>

#include <energy_audit/types.hpp>

namespace ea = energy_audit;

BOOST_AUTO_TEST_CASE(views_vectors_segments_and_maps_without_copying) {
  ea::Vector y(5);
  y << 1, 2, 3, 4, 5;
  const ea::ConstVectorRef whole = y;
  const ea::ConstVectorRef tail = y.segment(2, 3);
  const Eigen::Map<ea::Vector> solver_memory(y.data() + 1, 2);
  const ea::ConstVectorRef mapped = solver_memory;
  const ea::ConstVectorRef fixed = y.head<2>();

  BOOST_TEST(whole.data() == y.data());
  BOOST_TEST(whole.size() == 5);
  BOOST_TEST(tail.data() == y.data() + 2);
  BOOST_TEST(tail.size() == 3);
  BOOST_TEST(mapped.data() == y.data() + 1);
  BOOST_TEST(fixed.data() == y.data());
  BOOST_TEST(fixed.size() == 2);

  y[3] = 40;  // a view sees later writes
  BOOST_TEST(tail[1] == 40);
  BOOST_TEST(whole[3] == 40);
}

// What it cannot view without a copy does not convert (checked when this file compiles).
using Sum = decltype(ea::Vector() + ea::Vector());
using MatrixRow = decltype(ea::Matrix().row(0));  // column-major: its entries are not adjacent
using MatrixColumn = decltype(ea::Matrix().col(0));
static_assert(!std::is_convertible_v<Sum, ea::ConstVectorRef>);
static_assert(!std::is_convertible_v<MatrixRow, ea::ConstVectorRef>);
static_assert(std::is_convertible_v<MatrixColumn, ea::ConstVectorRef>);
static_assert(std::is_trivially_destructible_v<ea::ConstVectorRef>);  // nothing to free per call
