#pragma once
/// \file
/// Work from Python that Ctrl-C can stop: the work goes on a thread of its own while the calling
/// thread, holding the GIL only now and then, runs Python's signal handlers and whatever the
/// caller draws (a progress line). The work must end soon after `stop` is requested (a run at
/// its next step boundary, a study before its next run).

#include <pybind11/pybind11.h>

#include <chrono>
#include <future>
#include <optional>
#include <type_traits>
#include <utility>

#include <energy_audit/stop_request.hpp>

namespace energy_audit::python {

/// Runs work() on a thread of its own; every 50 ms this thread, with the GIL, runs Python's
/// signal handlers and calls poll(false), and poll(true) once the work has ended. A
/// KeyboardInterrupt (Ctrl-C) requests `stop` and the work's result, partial, comes back; another
/// exception from a handler requests it too and is raised once the work has stopped. An
/// exception of the work itself is raised as it is.
template <class Work, class Poll>
std::invoke_result_t<Work&> run_interruptibly(StopRequest& stop, Work work, Poll poll) {
  namespace py = pybind11;
  auto result = std::async(std::launch::async, std::move(work));
  // Leaving early (an exception) stops the work before the future's destructor waits for it.
  struct StopWhenLeaving {
    StopRequest& stop;
    ~StopWhenLeaving() { stop.request(); }
  } stop_when_leaving{stop};
  std::optional<py::error_already_set> raised;
  for (;;) {
    bool ended = false;
    {
      const py::gil_scoped_release release;
      ended = result.wait_for(std::chrono::milliseconds(50)) == std::future_status::ready;
    }
    if (ended) break;
    if (!raised && PyErr_CheckSignals() != 0) {
      raised.emplace();  // takes the exception the handler raised
      stop.request();
    }
    poll(false);
  }
  auto value = result.get();
  poll(true);
  if (raised && !raised->matches(PyExc_KeyboardInterrupt)) throw *raised;
  return value;
}

}  // namespace energy_audit::python
