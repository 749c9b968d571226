#include "runner/worker.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "models/builtin_kernels.hpp"
#include "registry.hpp"
#include "runner/lifecycle_plan.hpp"

namespace oprig::harness {
namespace {

// The case in progress, for the fatal-signal note (a handler may read only
// what is already in memory: no allocation, no locks).
char g_current_case[512];

void write_stderr(const char* text) {
  for (size_t left = std::strlen(text); left > 0;) {
    const ssize_t n = ::write(2, text, left);
    if (n <= 0) return;
    text += n;
    left -= static_cast<size_t>(n);
  }
}

// The supervisor's CRASH message names the worker log: this puts in it what
// killed the worker and on which case, before the signal does its default
// work (core dump, exit status) as if nothing had caught it.
void note_fatal_signal(int sig) {
  write_stderr("oprig worker: fatal signal SIG");
  const char* name = sigabbrev_np(sig);
  write_stderr(name ? name : "?");
  char number[16];
  int digits = 0;
  for (int v = sig; v > 0 && digits < 15; v /= 10) number[digits++] = static_cast<char>('0' + v % 10);
  write_stderr(" (signal ");
  while (digits > 0) {
    const char digit[2] = {number[--digits], '\0'};
    write_stderr(digit);
  }
  write_stderr(") while running case ");
  write_stderr(g_current_case[0] ? g_current_case : "(none yet)");
  write_stderr("\n");
  signal(sig, SIG_DFL);
  raise(sig);
}

void note_fatal_signals() {
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
    struct sigaction action {};
    action.sa_handler = note_fatal_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigaction(sig, &action, nullptr);
  }
  // Whatever a kernel prints reaches the log line by line, not lost in a
  // buffer when it crashes.
  setvbuf(stdout, nullptr, _IOLBF, 0);
}

void set_current_case(const std::string& id) {
  const size_t n = std::min(id.size(), sizeof g_current_case - 1);
  std::memcpy(g_current_case, id.data(), n);
  g_current_case[n] = '\0';
}

void emit(const std::string& line) {
  const char* p = line.data();
  size_t left = line.size();
  while (left > 0) {
    const ssize_t n = ::write(kProtocolFd, p, left);
    if (n <= 0) _exit(3);  // the supervisor is gone: nothing left to report to
    p += n;
    left -= static_cast<size_t>(n);
  }
}

int run_model_worker(const Selection& selection, const models::LoadedModelSuite& suite,
                     const std::string& backend_name, const std::set<std::string>& wanted) {
  const graph::PackageLibrary packages = load_model_packages(suite, selection);
  std::string why, cpu_why;
  std::unique_ptr<Backend> target = create_backend(backend_name, &why);
  std::unique_ptr<Backend> cpu = backend_name == "cpu" ? nullptr : create_backend("cpu", &cpu_why);
  Backend& fallback = cpu ? *cpu : *target;
  // Built-ins run on the device through the opsuite's kernels where it has them.
  const std::unique_ptr<models::OpsuiteBuiltinKernels> builtins = models::OpsuiteBuiltinKernels::bundled();
  for (const models::SuiteCase& c : suite.suite.cases) {
    const std::string id = models::case_id(suite, c, backend_name);
    if (!wanted.count(id)) continue;
    set_current_case(id);
    emit("START " + id + "\n");
    const reports::CaseResult result =
        target ? models::run_model_case(suite, c, backend_name, target.get(), "", fallback, packages, builtins.get())
               : models::run_model_case(suite, c, backend_name, nullptr, backend_name + " unavailable: " + why,
                                        *cpu, packages, builtins.get());
    emit("RESULT " + reports::dump_json(nlohmann::json(result)) + "\n");
  }
  return 0;
}

}  // namespace

int run_worker(const Selection& selection, const std::string& op_name, const std::string& backend_name) {
  // Workers have process groups of their own (supervisor.cpp): this ties
  // their life to oprig's even when oprig is killed outright.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  note_fatal_signals();
  Selection one = selection;
  one.op = op_name;
  Suite suite = load_suite(one, PackageLoading::kInThisProcess);

  // Case ids to run, and "NOT_PASSED <id>" for cases of the group that ended
  // badly in an earlier worker (never a lifecycle companion, lifecycle_plan.hpp).
  std::set<std::string> wanted, not_passed;
  for (std::string line; std::getline(std::cin, line);) {
    if (line.rfind(kNotPassedPrefix, 0) == 0) not_passed.insert(line.substr(std::strlen(kNotPassedPrefix)));
    else if (!line.empty()) wanted.insert(line);
  }
  if (suite.ops.empty()) return run_model_worker(selection, *suite.model_suites.at(0), backend_name, wanted);
  LoadedOp& op = *suite.ops.at(0);

  BackendContext be;
  std::string why;
  std::unique_ptr<Backend> backend = create_backend(backend_name, &why);
  be.backend = backend.get();
  be.unavailable_reason = backend_name + " unavailable: " + why;
  be.package = op.package;
  const PackageOp* pop = op.package->find_op(op.plan.op);
  const oprig_backend_kind kind = backend_kind_from_name(backend_name);
  if (pop == nullptr || (pop->backend_mask & OPRIG_BACKEND_BIT(kind)) == 0)
    be.no_implementation_reason = op.package->name() + " registers no " + backend_name + " kernel for " + op.plan.op;
  else {
    be.implementation_claimed = true;
    be.implementation = op.package->implementation(kind, &be.no_implementation_reason);
  }

  std::unique_ptr<Backend> reference_backend;
  if (!selection.reference_backend.empty() && selection.reference_backend != backend_name) {
    reference_backend = create_backend(selection.reference_backend, &be.reference_unavailable);
    be.reference_backend = reference_backend.get();
    const oprig_backend_kind ref_kind = backend_kind_from_name(selection.reference_backend);
    if (reference_backend == nullptr) {
      be.reference_unavailable = selection.reference_backend + " unavailable: " + be.reference_unavailable;
    } else if (pop == nullptr || (pop->backend_mask & OPRIG_BACKEND_BIT(ref_kind)) == 0) {
      be.reference_unavailable = op.package->name() + " registers no " + selection.reference_backend + " kernel for " + op.plan.op;
    } else {
      be.reference_implementation = op.package->implementation(ref_kind, &be.reference_unavailable);
    }
  }
  // Every step is announced, so a crash or hang is charged to the right party.
  be.phase = [](const char* what) { emit(std::string("PHASE ") + what + "\n"); };

  be.strict = selection.strict;
  be.keep = &selection.keep;
  const std::vector<Case> cases = op_cases(op, selection, {backend_name});
  const LifecyclePlan lifecycle(cases, op.plan);
  std::map<std::string, const Case*> by_id;
  std::vector<std::string> ids;
  for (const Case& c : cases) {
    by_id[c.id] = &c;
    ids.push_back(c.id);
  }
  for (const std::string& id : lifecycle.run_order(ids)) {
    if (!wanted.count(id)) continue;
    const Case& c = *by_id.at(id);
    set_current_case(c.id);
    emit("START " + c.id + "\n");
    const std::optional<std::vector<const Case*>> companions = lifecycle.companions_of(c.id, not_passed);
    if (companions)  // in the worker log: which cases carried the lifecycle passes
      std::cerr << "lifecycle anchor " << c.id << " (" << companions->size() << " companion(s)): passes run if it passes\n";
    const reports::CaseResult result = execute_case(c, op.context, be, companions ? &*companions : nullptr);
    if (!usable_as_companion(result.verdict)) not_passed.insert(c.id);
    emit("RESULT " + reports::dump_json(nlohmann::json(result)) + "\n");
  }
  return 0;
}

}  // namespace oprig::harness
