// SPDX-License-Identifier: Apache-2.0
#include "sim/tb/node/ni_node_dut.hpp"

#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "Vni_node.h"
#include "Vni_node___024root.h"
#include "ni_node_ports.hpp"  // generated from rtl/top/ni_node.sv (scripts/gen_pkg.py)
#include "sim/tb/bind.hpp"

// The phases of the model's eval() as Verilator 5.048 generates them (not part of its API):
// declared weak, so a model generated otherwise still links, and the adapter then keeps
// calling eval(). tests/sim/test_threads.py checks runs split and whole are the same.
bool Vni_node___024root___eval_phase__ico(Vni_node___024root*) __attribute__((weak));
bool Vni_node___024root___eval_phase__act(Vni_node___024root*) __attribute__((weak));
bool Vni_node___024root___eval_phase__nba(Vni_node___024root*) __attribute__((weak));
void Vni_node___024root___sample(Vni_node___024root*) __attribute__((weak));

namespace sim {

namespace {

constexpr unsigned kConvergeLimit = 10000;  // Verilator's default --converge-limit

bool split_eval_available() {
  return VERILATOR_VERSION_INTEGER >= 5048000 && VERILATOR_VERSION_INTEGER < 5050000 &&
         Vni_node___024root___eval_phase__ico != nullptr &&
         Vni_node___024root___eval_phase__act != nullptr &&
         Vni_node___024root___eval_phase__nba != nullptr && Vni_node___024root___sample != nullptr;
}

void converge_check(unsigned& n, const char* region) {
  if (++n > kConvergeLimit)
    throw std::runtime_error(std::string("ni_node: the ") + region + " region did not converge");
}

// The clocked part of Vni_node's eval(): the active and NBA regions until they settle.
void eval_clocked(Vni_node___024root& r) {
  unsigned nba = 0;
  bool again = true;
  while (again) {
    converge_check(nba, "NBA");
    r.__VactIterCount = 0;
    while (Vni_node___024root___eval_phase__act(&r)) converge_check(r.__VactIterCount, "active");
    again = Vni_node___024root___eval_phase__nba(&r);
  }
}

// The clock's low phase: the inputs are new, so the input-combinational region runs (the
// clocked regions only record the clock's level; nothing is sampled: the assertions sample
// on the rising edge).
void eval_low(Vni_node___024root& r) {
  unsigned ico = 0;
  r.__VicoFirstIteration = 1;
  bool again = true;
  while (again) {
    converge_check(ico, "input-combinational");
    again = Vni_node___024root___eval_phase__ico(&r);
    r.__VicoFirstIteration = 0;
  }
  eval_clocked(r);
}

// The rising edge: the inputs are those the low phase settled, so the input-combinational
// region would recompute what it computed then; the assertions' operands are sampled, the
// clocked regions run.
void eval_high(Vni_node___024root& r) {
  Vni_node___024root___sample(&r);
  eval_clocked(r);
}

}  // namespace

struct NiNodeDut::Impl {
  VerilatedDut<Vni_node> dut;
  bool split = false;
  Impl(VerilatedContext& ctx, const std::string& name) : dut(ctx, name) {}
};

namespace {
// An output used where the bundle has an input member: the monitors only read it.
template <typename T>
T* tap(const T& out) {
  return const_cast<T*>(&out);
}
}  // namespace

NiNodeDut::NiNodeDut(VerilatedContext& ctx, const std::string& name)
    : impl_(std::make_unique<Impl>(ctx, name)) {
  Vni_node& m = impl_->dut.model();
  ports_.axi = bind_axi_slave(m);
  ports_.mem = bind_axi_mem(m);
  ports_.req_tx = StreamTxPorts{&m.req_tx_valid_o, &m.req_tx_ready_i, wide_out(m.req_tx_data_o),
                                &m.req_tx_last_o};
  ports_.rsp_tx =
      StreamTxPorts{&m.rsp_tx_valid_o, &m.rsp_tx_ready_i, wide_out(m.rsp_tx_data_o), nullptr};
  ports_.req_rx = StreamRxPorts{&m.req_rx_valid_i, &m.req_rx_ready_o, wide_in(m.req_rx_data_i),
                                &m.req_rx_last_i};
  ports_.rsp_rx =
      StreamRxPorts{&m.rsp_rx_valid_i, &m.rsp_rx_ready_o, wide_in(m.rsp_rx_data_i), nullptr};
  ports_.node_id = &m.node_id_i;
  ports_.init_done = &m.init_done_o;
  ports_.trace = wide_out(m.trace_qos_o);
  ports_.blk = BlkPorts{&m.trace_blk_valid_o, tap(m.trace_blk_ready_o), &m.trace_blk_tid_o,
                        wide_out(m.trace_blk_desc_o)};
  ports_.pkt =
      PktPorts{&m.trace_pkt_valid_o, tap(m.trace_pkt_ready_o), wide_out(m.trace_pkt_data_o)};
  ports_.rsp = RspInPorts{tap(m.trace_rsp_valid_o), &m.trace_rsp_ready_o, tap(m.trace_rsp_o)};
  ports_.rx_busy = &m.trace_rx_busy_o;
  ports_.rx_rsp = StreamTxPorts{&m.trace_rx_rsp_valid_o, tap(m.trace_rx_rsp_ready_o),
                                wide_out(m.trace_rx_rsp_data_o), nullptr};
  ports_.rd = ReadPorts{&m.trace_rreq_valid_o, &m.trace_rreq_ready_o, wide_out(m.trace_rreq_o),
                        &m.trace_drsp_valid_o, &m.trace_drsp_ready_o, &m.trace_drsp_o,
                        &m.trace_drsp_node_o};
}

NiNodeDut::~NiNodeDut() = default;

std::vector<CaptureSignal> NiNodeDut::capture_columns() const {
  const Vni_node& m = impl_->dut.model();
  std::vector<CaptureSignal> c = capture_axi_slave(m);
  c.insert(c.end(), {
                        {"req_tx_valid_o", 1, &m.req_tx_valid_o},
                        {"req_tx_ready_i", 1, &m.req_tx_ready_i},
                        {"req_tx_last_o", 1, &m.req_tx_last_o},
                        {"req_tx_data_o", 512, m.req_tx_data_o.data()},
                        {"req_rx_valid_i", 1, &m.req_rx_valid_i},
                        {"req_rx_ready_o", 1, &m.req_rx_ready_o},
                        {"req_rx_last_i", 1, &m.req_rx_last_i},
                        {"req_rx_data_i", 512, m.req_rx_data_i.data()},
                        {"rsp_tx_valid_o", 1, &m.rsp_tx_valid_o},
                        {"rsp_tx_ready_i", 1, &m.rsp_tx_ready_i},
                        {"rsp_tx_data_o", 512, m.rsp_tx_data_o.data()},
                        {"rsp_rx_valid_i", 1, &m.rsp_rx_valid_i},
                        {"rsp_rx_ready_o", 1, &m.rsp_rx_ready_o},
                        {"rsp_rx_data_i", 512, m.rsp_rx_data_i.data()},
                        {"init_done_o", 1, &m.init_done_o},
                    });
  return c;
}

// The GTKWave save file of an N-node trace: per node, its ports (the generated port list of
// ni_node, build/gen/ni_node_ports.hpp, so the file names only ports the RTL has) in groups by
// the unit they belong to: the CPU port, the send unit (blocks and engine packets in, memory
// reads, req_tx), the receive unit (req_rx, memory writes, rsp_tx, responses to the engine)
// and the links' data; clock, reset and what fits no group at the top.
namespace {

enum class Group { Top, Cpu, Send, Recv, Links };

bool starts(const char* name, const char* prefix) {
  return std::strncmp(name, prefix, std::strlen(prefix)) == 0;
}

// The group of a port, by its name (ICD 10's port naming).
Group group_of(const char* name) {
  for (const char* p : {"req_tx_data", "req_rx_data", "rsp_tx_data", "rsp_rx_"}) {
    if (starts(name, p)) return Group::Links;
  }
  if (starts(name, "s_axi_")) return Group::Cpu;
  for (const char* p : {"trace_blk_", "trace_pkt_", "m_axi_ar", "m_axi_r", "req_tx_"}) {
    if (starts(name, p)) return Group::Send;
  }
  for (const char* p :
       {"req_rx_", "m_axi_aw", "m_axi_w", "m_axi_b", "rsp_tx_", "trace_rsp", "trace_rx_"}) {
    if (starts(name, p)) return Group::Recv;
  }
  return Group::Top;
}

}  // namespace

void NiNodeDut::write_save_file(const std::string& fst, unsigned nodes) {
  std::string path = fst;
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".fst") == 0)
    path.resize(path.size() - 4);
  path += ".gtkw";
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return;
  std::fprintf(f,
               "[*] GTKWave save file of an ni_sim --nodes %u trace (written by ni_sim)\n"
               "[*] Time: cycle c of the log spans 10c .. 10c+9; its rising edge is at 10c+5.\n"
               "[dumpfile] \"%s\"\n[timestart] 0\n[size] 1800 1000\n[sst_width] 260\n"
               "[signals_width] 360\n",
               nodes, fst.c_str());
  auto signals = [f](const std::string& n, Group g) {
    for (const ni::ni_node_ports::Port& p : ni::ni_node_ports::ports) {
      if (group_of(p.name) != g) continue;
      if (p.width == 1) {
        std::fprintf(f, "@28\n%s.%s\n", n.c_str(), p.name);
      } else {
        std::fprintf(f, "@22\n%s.%s[%u:0]\n", n.c_str(), p.name, p.width - 1);
      }
    }
  };
  auto group = [&](const std::string& title, const std::string& n, Group g, bool closed) {
    std::fprintf(f, "@%s\n-%s\n", closed ? "c00200" : "800200", title.c_str());
    signals(n, g);
    std::fprintf(f, "@%s\n-%s\n", closed ? "1401200" : "1000200", title.c_str());
  };
  for (unsigned i = 0; i < nodes; ++i) {
    const std::string n = "node" + std::to_string(i);
    signals(n, Group::Top);
    group(n + " CPU port", n, Group::Cpu, i != 0);
    group(n + " send unit", n, Group::Send, false);
    group(n + " receive unit", n, Group::Recv, false);
    group(n + " links", n, Group::Links, true);
  }
  std::fclose(f);
}

void NiNodeDut::set_clk(bool high) { impl_->dut.set_clk(high); }
void NiNodeDut::set_rst_n(bool high) { impl_->dut.set_rst_n(high); }
void NiNodeDut::eval() {
  if (!impl_->split) {
    impl_->dut.eval();
    return;
  }
  Vni_node& m = impl_->dut.model();
  if (m.clk_i) {
    eval_high(*m.rootp);
  } else {
    eval_low(*m.rootp);
  }
}

bool NiNodeDut::split_eval(bool on) {
  impl_->split = on && split_eval_available();
  return impl_->split;
}
void NiNodeDut::trace(VerilatedFstC& fst, int levels) { impl_->dut.trace(fst, levels); }
void NiNodeDut::final() { impl_->dut.final(); }
const std::string& NiNodeDut::name() const { return impl_->dut.name(); }

}  // namespace sim
