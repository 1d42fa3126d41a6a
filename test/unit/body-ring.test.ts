import t from 'tap';
import { BODY_RING_BYTES, BodyRing, MAX_RING_BODY, createBodyRing } from '../../src/wire/body-ring';

/** The two ends of one ring, as the shard thread and the front end hold them. */
function ends(): { writer: BodyRing; reader: BodyRing } {
  const shared = createBodyRing();
  return { writer: new BodyRing(shared), reader: new BodyRing(shared) };
}

t.test('a body written as pieces reads back whole at the other end', async (t) => {
  const { writer, reader } = ends();
  const slot = writer.write([Buffer.from('{"a":'), Buffer.from('[1,2]'), Buffer.from('}')], 11);
  if (!slot) throw new Error('no slot for a small body');
  t.equal(Buffer.from(reader.view(slot)).toString(), '{"a":[1,2]}');
  const next = writer.write([Buffer.from('second')], 6);
  t.equal(next?.offset, 11, 'bodies follow one another');
  t.equal(Buffer.from(reader.view(next ?? slot)).toString(), 'second');
});

t.test('a body too large for the ring is refused, to be transferred instead', async (t) => {
  const { writer } = ends();
  t.equal(writer.write([], MAX_RING_BODY + 1), null);
  t.not(writer.write([], MAX_RING_BODY), null);
});

t.test('the writer waits for the reader: a full ring refuses until bodies are released', async (t) => {
  const { writer, reader } = ends();
  const slots = [];
  for (let i = 0; i < BODY_RING_BYTES / MAX_RING_BODY; i++) slots.push(writer.write([Buffer.from(`body ${i}`)], MAX_RING_BODY));
  t.notOk(slots.includes(null), 'the ring holds its capacity');
  t.equal(writer.write([Buffer.from('x')], 1), null, 'not one byte more while nothing is released');
  const [first, second] = slots;
  if (!first || !second) throw new Error('no slots');
  reader.release(first);
  const reused = writer.write([Buffer.from('again')], 5);
  t.equal(reused?.offset, 0, "the first body's room is reused");
  t.equal(Buffer.from(reader.view(second).subarray(0, 6)).toString(), 'body 1', 'bodies not yet released are untouched');
});

t.test('a body never wraps: it starts again at the beginning, and positions run past 2^32', async (t) => {
  const { writer, reader } = ends();
  // Two thousand laps of the ring, releasing each body: past 2^32 bytes written in all.
  const laps = Math.ceil(2 ** 32 / BODY_RING_BYTES) + 2;
  const bodyLength = MAX_RING_BODY - 1000; // does not divide the ring: each lap ends with a skipped tail
  let written = 0;
  let lastOffset = -1;
  while (written < laps * BODY_RING_BYTES) {
    const slot = writer.write([], bodyLength);
    if (!slot) throw new Error(`refused after ${written} bytes though everything was released`);
    if (slot.offset + slot.length > BODY_RING_BYTES) throw new Error(`a body wrapped at ${slot.offset}`);
    lastOffset = slot.offset;
    reader.release(slot);
    written += bodyLength;
  }
  t.ok(lastOffset >= 0);
  const slot = writer.write([Buffer.from('still here')], 10);
  if (!slot) throw new Error('refused after the positions wrapped');
  t.equal(Buffer.from(reader.view(slot)).toString(), 'still here');
});
