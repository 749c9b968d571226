#include "runner/worker.hpp"

#include <unistd.h>

#include <iostream>
#include <set>
#include <string>

#include "backend.hpp"

namespace oprig::harness {
namespace {

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

}  // namespace

int run_worker(const Selection& selection, const std::string& op_name, const std::string& backend_name) {
  Selection one = selection;
  one.op = op_name;
  Suite suite = load_suite(one);
  LoadedOp& op = *suite.ops.at(0);

  std::set<std::string> wanted;
  for (std::string id; std::getline(std::cin, id);)
    if (!id.empty()) wanted.insert(id);

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
  else
    be.implementation = op.package->implementation(kind, &be.no_implementation_reason);

  for (const Case& c : generate_cases(op.space, op.plan, {backend_name})) {
    if (!wanted.count(c.id)) continue;
    emit("START " + c.id + "\n");
    const reports::CaseResult result = execute_case(c, op.context, be);
    emit("RESULT " + reports::dump_json(nlohmann::json(result)) + "\n");
  }
  return 0;
}

}  // namespace oprig::harness
