#include <energy_audit/studies/mpi_ranks.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <mpi.h>

namespace energy_audit::studies {

MpiRanks::MpiRanks() {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

namespace {

/// What one rank sends for each run it made: the index, whether it failed, and the encoded
/// result (or the failure's message).
void append_record(std::vector<std::uint8_t>& buffer, std::uint64_t index, bool failed,
                   const std::vector<std::uint8_t>& payload) {
  const std::uint64_t header[3] = {index, failed ? 1u : 0u, payload.size()};
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(header);
  buffer.insert(buffer.end(), bytes, bytes + sizeof header);
  buffer.insert(buffer.end(), payload.begin(), payload.end());
}

/// The next index from the counter on rank 0, for every rank to take in turn.
class SharedCounter {
 public:
  SharedCounter() {
    MPI_Win_allocate(sizeof(std::uint64_t), sizeof(std::uint64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &base_, &window_);
    *base_ = 0;
    MPI_Barrier(MPI_COMM_WORLD);  // every counter is zero before anyone takes from rank 0's
    MPI_Win_lock_all(0, window_);
  }
  ~SharedCounter() {
    MPI_Win_unlock_all(window_);
    MPI_Win_free(&window_);
  }
  SharedCounter(const SharedCounter&) = delete;
  SharedCounter& operator=(const SharedCounter&) = delete;

  std::uint64_t next() {
    const std::uint64_t one = 1;
    std::uint64_t taken = 0;
    MPI_Fetch_and_op(&one, &taken, MPI_UINT64_T, 0, 0, MPI_SUM, window_);
    MPI_Win_flush(0, window_);
    return taken;
  }

 private:
  std::uint64_t* base_ = nullptr;
  MPI_Win window_ = MPI_WIN_NULL;
};

int checked_int(std::size_t size) {
  if (size > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw std::runtime_error("the results of one sweep exceed 2 GB and cannot be gathered across ranks");
  }
  return static_cast<int>(size);
}

/// The message of a run's failure, which is what travels to the other ranks.
std::string failure_message(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const std::exception& error) {
    return error.what();
  } catch (...) {
    return "a run failed with an exception that is not a std::exception";
  }
}

}  // namespace

void MpiRanks::run_all(const RunBatch& runs) const {
  const std::size_t count = runs.count();
  ProgressLine& progress = runs.progress();
  const std::size_t units_each = runs.units_each();
  const int ranks = size();
  std::vector<std::uint8_t> mine;
  std::uint64_t counted = 0;  // indices counted on the progress line
  const auto count_done = [&](std::uint64_t done) {
    if (done <= counted) return;
    progress.advance(static_cast<std::size_t>(done - counted) * units_each);
    counted = done;
  };
  {
    SharedCounter counter;
    bool failed = false;  // after a failure this rank takes the remaining indices without running them
    for (std::uint64_t i = counter.next(); i < count; i = counter.next()) {
      const auto others_in_flight = static_cast<std::uint64_t>(ranks - 1);
      count_done(i > others_in_flight ? i - others_in_flight : 0);
      if (failed) continue;
      try {
        append_record(mine, i, false, runs.encoded_run(static_cast<std::size_t>(i)));
      } catch (...) {  // every failure travels, so that every rank reaches the collectives below
        const std::string what = failure_message(std::current_exception());
        append_record(mine, i, true, std::vector<std::uint8_t>(what.begin(), what.end()));
        failed = true;
      }
      progress.close(static_cast<std::size_t>(i));
    }
  }
  std::vector<int> sizes(static_cast<std::size_t>(ranks)), offsets(static_cast<std::size_t>(ranks));
  const int my_size = checked_int(mine.size());
  MPI_Allgather(&my_size, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::size_t total = 0;
  for (int r = 0; r < ranks; ++r) {
    offsets[static_cast<std::size_t>(r)] = checked_int(total);
    total += static_cast<std::size_t>(sizes[static_cast<std::size_t>(r)]);
  }
  checked_int(total);
  std::vector<std::uint8_t> all(total);
  MPI_Allgatherv(mine.data(), my_size, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE, MPI_COMM_WORLD);

  std::vector<RunBatch::Encoded> results(count);
  std::uint64_t first_failure = count;
  std::string failure;
  for (std::size_t at = 0; at < all.size();) {
    std::uint64_t header[3];
    std::memcpy(header, all.data() + at, sizeof header);
    at += sizeof header;
    const auto begin = all.begin() + static_cast<std::ptrdiff_t>(at);
    const auto end = begin + static_cast<std::ptrdiff_t>(header[2]);
    if (header[1] != 0) {
      if (header[0] < first_failure) {
        first_failure = header[0];
        failure.assign(begin, end);
      }
    } else {
      results[header[0]].assign(begin, end);
    }
    at += header[2];
  }
  if (first_failure < count) throw std::runtime_error(failure);
  for (std::size_t i = 0; i < count; ++i) runs.keep_encoded(i, results[i]);
  count_done(count);
}

}  // namespace energy_audit::studies
