#pragma once
/// \file
/// What a study (compare, sweep, stability, advise) is given to run its independent runs: any
/// executor (run_executor.hpp) — the threads of this process, the ranks of an MPI job
/// (mpi_ranks.hpp), or the user's own — held behind one type, so that each study is compiled
/// once in the library, and the study's progress line (progress.hpp), on which the runs are
/// counted as they finish. Each result lands at its own index, so the results equal a serial
/// run's, run by run; across processes they travel as CBOR (nlohmann::json), which keeps every
/// double to the bit, and every process returns with all of them: the ranks go on in step through
/// searches whose next runs depend on earlier results, and the leading one writes the output.

#include <concepts>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <energy_audit/studies/progress.hpp>
#include <energy_audit/studies/run_batch.hpp>
#include <energy_audit/studies/run_executor.hpp>
#include <energy_audit/studies/thread_pool_executor.hpp>
#include <energy_audit/studies/transferable.hpp>

namespace energy_audit::studies {

class RunPool {
 public:
  /// `threads` threads of this process (ThreadPoolExecutor; 1: the serial run); the runs are
  /// counted on `progress` (none: not shown).
  explicit RunPool(int threads, ProgressLine* progress = nullptr)
      : RunPool(ThreadPoolExecutor(threads), progress) {}
  /// Any executor: one given as a temporary is kept by the pool, one given by name is referred to
  /// and must outlive the pool (as an MPI job's ranks do). A study called with an executor makes
  /// its pool from it.
  template <class Executor>
    requires RunExecutor<std::remove_cvref_t<Executor>>
  RunPool(Executor&& executor, ProgressLine* progress = nullptr)
      : executor_(hold(std::forward<Executor>(executor))), progress_(progress != nullptr ? progress : &silent()) {}

  /// Runs run(i) for i in [0, count) on the executor and returns every result in every process
  /// of the executor; the failure of the lowest index is thrown after all runs have stopped. Each
  /// finished index counts `units_each` on the progress line (runs; advise: one method's search)
  /// and closes that index's counter there.
  template <Transferable Result, class Run>
    requires std::invocable<const Run&, std::size_t>
  std::vector<Result> map(std::size_t count, const Run& run, std::size_t units_each = 1) const {
    std::vector<Result> results(count);
    executor_->run_all(ResultsAtIndices<Result, Run>(results, run, *progress_, units_each));
    return results;
  }

  /// Whether this process writes the output (the only process, or rank 0 of a group).
  bool leads() const { return executor_->leads(); }
  Workers workers() const { return executor_->workers(); }
  /// The study's progress line (one that shows nothing when the pool was given none).
  ProgressLine& progress() const { return *progress_; }

 private:
  /// The batch of map<Result>: run(i)'s result kept at index i of `results`.
  template <class Result, class Run>
  class ResultsAtIndices final : public RunBatch {
   public:
    ResultsAtIndices(std::vector<Result>& results, const Run& run, ProgressLine& progress, std::size_t units_each)
        : RunBatch(results.size(), progress, units_each), results_(results), run_(run) {}
    void run(std::size_t i) const override {
      results_[i] = run_(i);
      progress().close(i);
      progress().advance(units_each());
    }
    Encoded encoded_run(std::size_t i) const override { return nlohmann::json::to_cbor(nlohmann::json(Result(run_(i)))); }
    void keep_encoded(std::size_t i, const Encoded& result) const override {
      results_[i] = nlohmann::json::from_cbor(result).get<Result>();
    }

   private:
    std::vector<Result>& results_;
    const Run& run_;
  };

  /// The executor behind the pool's one type.
  class HeldExecutor {
   public:
    virtual ~HeldExecutor() = default;
    virtual void run_all(const RunBatch& runs) const = 0;
    virtual Workers workers() const = 0;
    virtual bool leads() const = 0;
  };
  /// `Stored`: the executor itself, or a pointer to one the pool refers to.
  template <class Stored>
  class Held final : public HeldExecutor {
   public:
    explicit Held(Stored stored) : stored_(std::move(stored)) {}
    void run_all(const RunBatch& runs) const override { executor().run_all(runs); }
    Workers workers() const override { return executor().workers(); }
    bool leads() const override { return static_cast<bool>(executor().leads()); }

   private:
    const auto& executor() const {
      if constexpr (std::is_pointer_v<Stored>) {
        return *stored_;
      } else {
        return stored_;
      }
    }
    Stored stored_;
  };
  template <class Executor>
  static std::shared_ptr<const HeldExecutor> hold(Executor&& executor) {
    using Plain = std::remove_cvref_t<Executor>;
    if constexpr (std::is_lvalue_reference_v<Executor>) {
      return std::make_shared<const Held<const Plain*>>(&executor);
    } else {
      return std::make_shared<const Held<Plain>>(std::move(executor));
    }
  }

  /// The line of a pool given none: it shows nothing and keeps no state.
  static ProgressLine& silent() {
    static ProgressLine line;
    return line;
  }

  std::shared_ptr<const HeldExecutor> executor_;
  ProgressLine* progress_;
};

}  // namespace energy_audit::studies
