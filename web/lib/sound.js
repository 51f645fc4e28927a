// Short tones made on the spot (no sound files): a tick for each seed sown, a chord for a
// capture, a call when the opponent has moved while the page is in the background. Off when the
// player says so (remembered).
import { saved } from './dom.js';

export const sound = {
  ctx: null,
  on() { return saved.get('oware.sound') !== 'off'; },
  tone(freq, ms, gain) {
    if (!this.on()) return;
    try {
      this.ctx = this.ctx || new (window.AudioContext || window.webkitAudioContext)();
      if (this.ctx.state === 'suspended') this.ctx.resume();
      const osc = this.ctx.createOscillator();
      const vol = this.ctx.createGain();
      const now = this.ctx.currentTime;
      osc.frequency.value = freq;
      vol.gain.setValueAtTime(gain, now);
      vol.gain.exponentialRampToValueAtTime(0.0001, now + ms / 1000);
      osc.connect(vol).connect(this.ctx.destination);
      osc.start(now);
      osc.stop(now + ms / 1000);
    } catch (e) { /* no audio here: silence */ }
  },
  sow() { this.tone(660, 60, 0.05); },
  capture() { this.tone(523, 180, 0.08); setTimeout(() => this.tone(784, 220, 0.08), 90); },
  notify() { this.tone(880, 150, 0.1); setTimeout(() => this.tone(1175, 200, 0.1), 160); },
};
