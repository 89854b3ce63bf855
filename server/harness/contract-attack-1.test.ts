import { attackShard } from './contract-attack';

// The hostile-input harness, shard 1 of 4 (see contract-attack.ts).
attackShard(0);
