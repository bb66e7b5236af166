// The pawnlight board on an emulated RP2040: MicroPython's UF2 and the firmware's littlefs
// image run unmodified in rp2040js, wired to models of the board's chips.
//
//     node pico.mjs BOOTROM UF2 FLASH_IMAGE STATE_DIR CONTROL_IN_FD CONTROL_OUT_FD
//
// stdin/stdout are the USB CDC serial line (what the Pi opens), exactly as the MicroPython unix
// port's are for the simulated firmware, and the control channel speaks the same
// newline-separated JSON (pawnlight.devices.sim.firmware documents it), so the Python side
// (pawnlight.devices.sim.emulated_pico) reuses all of SimulatedFirmware. Times in events are the
// Pico's own clock (nanoseconds), not the wall clock: the emulator runs several times slower
// than a real chip.
//
// The models are at the level the firmware drives the hardware: a chain of 74HC165 answering
// SPI bytes after a /PL pulse, CD74HC4067 muxes selected by GPIO whose SIG is what the ADC
// converts, an MFRC522 register file on SPI with ISO 14443-A cards, and the WS2812 line decoded
// from the widths of its high pulses.

import fs from 'node:fs';
import net from 'node:net';
import { GPIOPinState, Simulator, USBCDC } from 'rp2040js';

const [bootromPath, uf2Path, flashPath, stateDir, ctlInFd, ctlOutFd] = process.argv.slice(2);
const world = JSON.parse(fs.readFileSync(`${stateDir}/world.json`, 'utf8'));
const cfg = world.config;

const EXIT_WATCHDOG = 76; // the Python side starts the next boot, as after a chip reset
const FLASH_BASE = 0x10000000;
const FS_OFFSET = 0xa0000; // MicroPython rp2 (RPI_PICO): littlefs from here, 352 blocks of 4 KiB
const FS_SIZE = 352 * 4096;
const WATCHDOG_BASE = 0x40058000;

const sim = new Simulator();
const mcu = sim.rp2040;
const clock = sim.clock;
mcu.logger = { debug() {}, info() {}, warn() {}, error(c, m) { process.stderr.write(`${c}: ${m}\n`); } };

// --- boot ROM, MicroPython, the filesystem ------------------------------------------------
const rom = fs.readFileSync(bootromPath);
mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length >> 2));
const uf2 = fs.readFileSync(uf2Path);
for (let off = 0; off + 512 <= uf2.length; off += 512) {
  const block = uf2.subarray(off, off + 512);
  if (block.readUInt32LE(0) !== 0x0a324655 || block.readUInt32LE(4) !== 0x9e5d5157) {
    throw new Error(`${uf2Path}: not a UF2 file (bad magic at byte ${off})`);
  }
  const target = block.readUInt32LE(12);
  const size = block.readUInt32LE(16);
  mcu.flash.set(block.subarray(32, 32 + size), target - FLASH_BASE);
}
const image = fs.readFileSync(flashPath);
mcu.flash.set(image.subarray(0, FS_SIZE), FS_OFFSET);

// The ring oscillator's RANDOMBIT (ROSC + 0x1c), where MicroPython's os.urandom gets its
// entropy: rp2040js leaves it out, and a constant would give every boot the same boot id,
// so the Pi could not tell a rebooted board from the old one.
const rosc = mcu.findPeripheral(0x40060000);
const roscRead = rosc.readUint32.bind(rosc);
rosc.readUint32 = (offset) => (offset === 0x1c ? (Math.random() < 0.5 ? 1 : 0) : roscRead(offset));

// A reboot keeps what the chip keeps: the flash (files the firmware wrote) and the
// watchdog's scratch registers and reset reason.
let halted = false;
const watchdog = mcu.findPeripheral(WATCHDOG_BASE);
if (world.watchdog) {
  watchdog.reason = world.watchdog.reason;
  watchdog.scratchData.set(world.watchdog.scratch);
}
function reboot() {
  fs.writeFileSync(flashPath, mcu.flash.subarray(FS_OFFSET, FS_OFFSET + FS_SIZE));
  const state = { reason: watchdog.reason, scratch: Array.from(watchdog.scratchData) };
  fs.writeFileSync(`${stateDir}/watchdog.json`, JSON.stringify(state));
  halted = true; // the chip stops here; what it wrote to USB still goes out, then we end
  const exit = () => process.exit(EXIT_WATCHDOG);
  if (process.stdout.writableLength === 0) exit();
  process.stdout.once('drain', exit);
  setTimeout(exit, 1000).unref();
}
watchdog.onWatchdogTrigger = reboot;

// --- control channel ----------------------------------------------------------------------
const ctlOut = Number(ctlOutFd);
function emit(event) {
  try {
    fs.writeSync(ctlOut, JSON.stringify(event) + '\n');
  } catch {
    process.exit(0); // the parent is gone
  }
}

const spiAnswerers = [[], []]; // per SPI bus: the chips on it (see spiDevice)

// --- sensors ------------------------------------------------------------------------------
let sensors = world.sensors.slice();
let noise = 0;
const pinHigh = (n) => mcu.gpio[n].outputValue;
const trace = { on: false, scans: [], tx: [] }; // recorded only while tracing

if (cfg.board === 'presence') {
  // 74HC165 chain: /PL low copies every input into the registers; each SPI byte then
  // shifts out one chip, U1 first, D7 first (MSB-first SPI puts Db in bit b). The hall
  // switches pull low under a magnet, so a present pawn reads 0. The last chip's DS is tied
  // to GND: clocking past the chain gives zeros.
  const p = cfg.presence;
  const latched = new Uint8Array(p.chips);
  let next = 0;
  mcu.gpio[p.load].addListener((state, old) => {
    if (state === GPIOPinState.Low && old !== GPIOPinState.Low) {
      for (let chip = 0; chip < p.chips; chip++) {
        let byte = 0;
        for (let bit = 0; bit < 8; bit++) {
          const ch = chip * 8 + bit;
          const present = ch < sensors.length && sensors[ch];
          if (present ? !p.active_low : p.active_low) byte |= 1 << bit;
        }
        latched[chip] = byte;
      }
      next = 0;
      if (trace.on) trace.scans.push(clock.nanos);
    }
  });
  spiDevice(p.spi, () => (next < latched.length ? latched[next++] : 0));
} else {
  // CD74HC4067 muxes: S0..S3 pick the input, the enabled (EN low) mux drives its SIG onto
  // the ADC pin; a ratiometric sensor reads mid-scale with no magnet. A scan starts when the
  // first mux is enabled.
  const c = cfg.colour;
  const firstEnable = c.muxes[0].enable;
  if (firstEnable != null) {
    mcu.gpio[firstEnable].addListener((state, old) => {
      if (state === GPIOPinState.Low && old !== GPIOPinState.Low && trace.on) trace.scans.push(clock.nanos);
    });
  }
  let adcValue = 0;
  const adcDone = clock.createAlarm(() => mcu.adc.completeADCRead(adcValue, false));
  mcu.adc.onADCRead = (channel) => {
    let address = 0;
    c.select.forEach((pin, bit) => {
      if (pinHigh(pin)) address |= 1 << bit;
    });
    let reading = 0; // nothing enabled: SIG floats, the ADC sees ~0 V through its leakage
    c.muxes.forEach((mux, index) => {
      const enabled = mux.enable == null || !pinHigh(mux.enable);
      if (enabled && mux.adc === 26 + channel) {
        const ch = index * 16 + address;
        reading = ch < sensors.length ? sensors[ch] : 32768;
      }
    });
    if (noise) reading += Math.round((Math.random() * 2 - 1) * noise);
    adcValue = Math.max(0, Math.min(4095, reading >> 4)); // 12-bit converter
    adcDone.schedule(mcu.adc.sampleTime * 1000);
  };
}

// SPI slaves: each byte the Pico clocks out gets the device's answer after 8 bit times.
function spiDevice(bus, answer, csPin = null) {
  spiAnswerers[bus].push({ answer, csPin });
  if (spiAnswerers[bus].length > 1) return;
  const spi = mcu.spi[bus];
  let reply = 0;
  const done = clock.createAlarm(() => spi.completeTransmit(reply));
  spi.onTransmit = (value) => {
    reply = 0xff; // nobody driving MISO: it floats high
    for (const dev of spiAnswerers[bus]) {
      if (dev.csPin == null || !pinHigh(dev.csPin)) reply &= dev.answer(value);
    }
    done.schedule((8 * 1e9) / Math.max(1, spi.clockFrequency));
  };
}

// --- MFRC522 and ISO 14443-A cards ----------------------------------------------------------
function crcA(data) {
  let crc = 0x6363;
  for (const byte of data) {
    crc ^= byte;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >> 1) ^ 0x8408 : crc >> 1;
  }
  return [crc & 0xff, crc >> 8];
}

class Card {
  constructor(hex) {
    const uid = Buffer.from(hex, 'hex');
    this.uid = uid;
    this.state = 'idle';
    this.level = 0;
    if (uid.length === 4) this.parts = [[...uid]];
    else if (uid.length === 7) this.parts = [[0x88, ...uid.subarray(0, 3)], [...uid.subarray(3)]];
    else this.parts = [[0x88, ...uid.subarray(0, 3)], [0x88, ...uid.subarray(3, 6)], [...uid.subarray(6)]];
    this.atqa = [[0x00, 0x40, 0x80][this.parts.length - 1] | 0x04, 0x00];
  }
  reset() {
    if (this.state !== 'halt') this.state = 'idle';
    this.level = 0;
  }
  respond(frame, lastBits) {
    if (lastBits === 7 && frame.length === 1) {
      const cmd = frame[0];
      if ((cmd === 0x26 && this.state === 'idle') || (cmd === 0x52 && this.state !== 'active')) {
        this.state = 'ready';
        this.level = 0;
        return this.atqa;
      }
      return null;
    }
    if (lastBits) return this.reset(), null;
    const sel = [0x93, 0x95, 0x97][this.level];
    if (this.state === 'ready' && frame.length >= 2 && frame[0] === sel) {
      const part = this.parts[this.level];
      const bcc = part[0] ^ part[1] ^ part[2] ^ part[3];
      if (frame[1] === 0x20 && frame.length === 2) return [...part, bcc];
      if (frame[1] === 0x70 && frame.length === 9) {
        const crc = crcA(frame.slice(0, 7));
        const expect = [...part, bcc];
        if (crc[0] !== frame[7] || crc[1] !== frame[8] || expect.some((b, i) => b !== frame[2 + i])) {
          return this.reset(), null;
        }
        let sak;
        if (this.level + 1 < this.parts.length) {
          this.level++;
          sak = 0x04; // UID not complete
        } else {
          this.state = 'active';
          sak = this.uid.length === 4 ? 0x08 : 0x00;
        }
        return [sak, ...crcA([sak])];
      }
    }
    const hlta = [0x50, 0x00, ...crcA([0x50, 0x00])];
    if (this.state === 'active' && frame.length === 4 && frame.every((b, i) => b === hlta[i])) {
      this.state = 'halt';
      return null;
    }
    return this.reset(), null;
  }
}

const reader = { card: world.card ? new Card(world.card) : null, polls: 0 };
if (cfg.card_reader && !world.no_card_reader) {
  const r = cfg.card_reader;
  const [COMMAND, COM_IRQ, ERROR, FIFO_DATA, FIFO_LEVEL, CONTROL, BIT_FRAMING, TX_CONTROL, VERSION] =
    [0x01, 0x04, 0x06, 0x09, 0x0a, 0x0c, 0x0d, 0x14, 0x37];
  let regs;
  let fifo;
  let addr = null;
  const softReset = () => {
    regs = new Uint8Array(64);
    regs[TX_CONTROL] = 0x80;
    regs[VERSION] = 0x92;
    fifo = [];
  };
  softReset();
  const powered = () => r.rst == null || pinHigh(r.rst);
  const transceive = () => {
    const frame = fifo;
    const lastBits = regs[BIT_FRAMING] & 0x07;
    if (lastBits === 7 && frame.length === 1 && (frame[0] === 0x26 || frame[0] === 0x52)) reader.polls++;
    fifo = [];
    regs[ERROR] = 0;
    const reply = reader.card && regs[TX_CONTROL] & 0x03 ? reader.card.respond(frame, lastBits) : null;
    if (reply == null) {
      regs[COM_IRQ] |= 0x01; // TimerIRq: nothing came back
      return;
    }
    fifo = reply.slice();
    regs[CONTROL] &= 0xf8;
    regs[COM_IRQ] |= 0x30; // RxIRq | IdleIRq
  };
  const writeReg = (reg, value) => {
    if (reg === COMMAND) {
      if ((value & 0x0f) === 0x0f) return softReset();
      regs[COMMAND] = value;
      if ((value & 0x0f) === 0x0c && regs[BIT_FRAMING] & 0x80) transceive();
    } else if (reg === COM_IRQ) {
      if (value & 0x80) regs[COM_IRQ] |= value & 0x7f;
      else regs[COM_IRQ] &= ~value & 0x7f;
    } else if (reg === FIFO_DATA) {
      if (fifo.length < 64) fifo.push(value);
    } else if (reg === FIFO_LEVEL) {
      if (value & 0x80) fifo = [];
    } else {
      regs[reg] = value;
      if (reg === BIT_FRAMING && value & 0x80 && (regs[COMMAND] & 0x0f) === 0x0c) transceive();
    }
  };
  const readReg = (reg) => {
    if (reg === FIFO_DATA) return fifo.length ? fifo.shift() : 0;
    if (reg === FIFO_LEVEL) return fifo.length;
    return regs[reg];
  };
  mcu.gpio[r.cs].addListener((state, old) => {
    if (state === GPIOPinState.Low && old !== GPIOPinState.Low) addr = null;
  });
  spiDevice(
    r.spi,
    (out) => {
      if (!powered()) return 0x00;
      if (addr == null) {
        addr = out;
        return 0x00;
      }
      const reg = (addr >> 1) & 0x3f;
      if (addr & 0x80) {
        addr = out; // a read answers the previous address and takes the next one
        return readReg(reg);
      }
      writeReg(reg, out); // a write sends every further byte to the same register
      return 0x00;
    },
    r.cs,
  );
}

// --- WS2812 line ----------------------------------------------------------------------------
// A 0 bit is a ~350 ns high pulse, a 1 bit ~800 ns; a low of 50 us or more latches the frame.
// Bytes arrive G, R, B per LED.
{
  const pin = mcu.gpio[cfg.leds.pin];
  let rise = 0;
  let bits = [];
  const latch = clock.createAlarm(() => {
    const bytes = [];
    for (let i = 0; i + 8 <= bits.length; i += 8) {
      let b = 0;
      for (let j = 0; j < 8; j++) b = (b << 1) | bits[i + j];
      bytes.push(b);
    }
    bits = [];
    const rgb = Buffer.alloc(cfg.leds.count * 3);
    for (let led = 0; led < cfg.leds.count && 3 * led + 2 < bytes.length; led++) {
      rgb[3 * led] = bytes[3 * led + 1];
      rgb[3 * led + 1] = bytes[3 * led];
      rgb[3 * led + 2] = bytes[3 * led + 2];
    }
    emit({ ev: 'leds', rgb: rgb.toString('hex'), t: clock.nanos });
  });
  pin.addListener((state, old) => {
    if (state === GPIOPinState.High && old !== GPIOPinState.High) {
      rise = clock.nanos;
      latch.cancel();
    } else if (state === GPIOPinState.Low && old === GPIOPinState.High) {
      bits.push(clock.nanos - rise > 575 ? 1 : 0);
      latch.schedule(50000);
    }
  });
}

// --- USB CDC <-> stdin/stdout ---------------------------------------------------------------
// The host side of USB only hands the device what its endpoint buffer takes; the rest waits
// here (and reading stdin pauses while too much waits), as a host's USB stack holds data the
// Pico has not yet accepted.
const cdc = new USBCDC(mcu.usbCtrl);
let toPico = [];
let connected = false;
let ready = false;
cdc.onDeviceConnected = () => {
  connected = true;
};
cdc.onSerialData = (buffer) => {
  if (!ready) {
    ready = true; // the firmware's first bytes are its HELLO: it is up
    emit({ ev: 'ready', t: clock.nanos });
  }
  if (trace.on) trace.tx.push([clock.nanos, Buffer.from(buffer).toString('hex')]);
  process.stdout.write(Buffer.from(buffer));
};
process.stdin.on('data', (chunk) => {
  for (const b of chunk) toPico.push(b);
  if (toPico.length > 4096) process.stdin.pause();
});
process.stdin.on('end', () => {});
function feedUsb() {
  if (!connected || !toPico.length) return;
  const room = cdc.txFIFO.size - cdc.txFIFO.itemCount;
  const n = Math.min(room, toPico.length);
  for (let i = 0; i < n; i++) cdc.sendSerialByte(toPico[i]);
  toPico = toPico.slice(n);
  if (toPico.length <= 4096 && process.stdin.isPaused()) process.stdin.resume();
}

// LED floods for the benchmark, paced by the Pico's clock: bytes handed to the USB host
// every period_ms of emulated time.
const flood = { frames: [], index: 0, sent: 0 };
const floodAlarm = clock.createAlarm(() => {
  if (flood.index >= flood.frames.length) return;
  for (const b of flood.frames[flood.index++]) toPico.push(b);
  flood.sent++;
  floodAlarm.schedule(flood.periodNs);
});

// Control commands arrive between slices of execution, so each takes effect at one instant
// of the Pico's time.
let ctlBuf = '';
// A socket, not fs.createReadStream: a thread-pool read blocked on a pipe keeps node from
// exiting at a reboot.
const ctlIn = new net.Socket({ fd: Number(ctlInFd), readable: true, writable: false });
ctlIn.on('data', (chunk) => {
  ctlBuf += chunk.toString();
  let end;
  while ((end = ctlBuf.indexOf('\n')) >= 0) {
    const line = ctlBuf.slice(0, end);
    ctlBuf = ctlBuf.slice(end + 1);
    if (line) command(JSON.parse(line));
  }
});
ctlIn.on('end', () => process.exit(0)); // the parent is gone

function stats(values) {
  const sorted = values.slice().sort((a, b) => a - b);
  const at = (q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : null);
  return { count: sorted.length, median: at(0.5), p99: at(0.99), max: sorted.length ? sorted[sorted.length - 1] : null };
}

function command(cmd) {
  const now = clock.nanos;
  switch (cmd.op) {
    case 'set':
      sensors[cmd.channel] = cmd.value;
      emit({ ev: 'applied', t: now, channel: cmd.channel, value: cmd.value });
      break;
    case 'set_all':
      sensors = cmd.values.slice();
      emit({ ev: 'applied', t: now });
      break;
    case 'card':
      reader.card = cmd.uid ? new Card(cmd.uid) : null;
      break;
    case 'noise':
      noise = cmd.amplitude;
      break;
    case 'ping':
      emit({ ev: 'pong', id: cmd.id, reader_polls: cfg.card_reader ? reader.polls : null, t: now });
      break;
    case 'trace': // start recording scan times and the frames sent to the host
      trace.scans = [];
      trace.tx = [];
      trace.on = true;
      emit({ ev: 'tracing', t: now });
      break;
    case 'report': {
      const periods = [];
      for (let i = 1; i < trace.scans.length; i++) periods.push((trace.scans[i] - trace.scans[i - 1]) / 1e6);
      emit({ ev: 'report', id: cmd.id, t: now, scan_ms: stats(periods), tx: trace.tx, flood_sent: flood.sent });
      trace.tx = [];
      break;
    }
    case 'flood':
      flood.frames = cmd.frames.map((hex) => Buffer.from(hex, 'hex'));
      flood.index = 0;
      flood.sent = 0;
      flood.periodNs = cmd.period_ms * 1e6;
      floodAlarm.schedule(0);
      break;
    case 'send': // bytes from the host at this instant of the Pico's time, bypassing the pty
      for (const b of Buffer.from(cmd.hex, 'hex')) toPico.push(b);
      emit({ ev: 'sent', id: cmd.id, t: now });
      break;
    case 'hang': // not modelled on the emulated chip: the firmware's own loop is what runs
      emit({ ev: 'log', message: 'hang is not supported on the emulated Pico' });
      break;
    default:
      emit({ ev: 'log', message: `unknown command ${JSON.stringify(cmd)}` });
  }
}

// --- run ---------------------------------------------------------------------------------
// Like Simulator.execute, in slices, giving node's event loop (pipes, control) a turn between
// slices; the USB host is served at every slice.
mcu.core.PC = 0x10000000;
const CYCLE_NS = 1e9 / 125e6;
function run() {
  for (let slice = 0; slice < 20 && !halted; slice++) {
    for (let i = 0; i < 10000; i++) {
      if (mcu.core.waiting) {
        const wait = clock.nanosToNextAlarm;
        clock.tick(wait);
        i += wait / CYCLE_NS;
      } else {
        clock.tick(mcu.core.executeInstruction() * CYCLE_NS);
      }
    }
    feedUsb();
  }
  if (!halted) setImmediate(run);
}
run();
