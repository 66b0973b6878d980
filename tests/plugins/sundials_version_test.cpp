// The SUNDIALS the plugins run with is the one they were compiled and configured for: the
// library's version (SUNDIALSGetVersion), the headers' (SUNDIALS_VERSION) and that of the
// SUNDIALS package CMake found (ENERGY_AUDIT_SUNDIALS_PACKAGE_VERSION) are one.
#include <string>

#include <boost/test/unit_test.hpp>

#include <sundials/sundials_config.h>
#include <sundials/sundials_version.h>

#include <energy_audit/sundials/sundials_version.hpp>

BOOST_AUTO_TEST_CASE(library_headers_and_package_are_one_version) {
  char library[64] = {};
  BOOST_TEST_REQUIRE(SUNDIALSGetVersion(library, sizeof library) == 0);
  BOOST_TEST_MESSAGE("SUNDIALS " << library);
  BOOST_TEST(std::string(library) == SUNDIALS_VERSION);
  BOOST_TEST(std::string(library) == ENERGY_AUDIT_SUNDIALS_PACKAGE_VERSION);
}
