import { it, expect } from 'vitest';
it('imports', async () => {
  const t = performance.now();
  const m = await import(process.env.MOD!);
  console.log('IMPORT', process.env.MOD, Math.round(performance.now() - t));
  expect(m).toBeTruthy();
});
