import { attackShard } from './contract-attack';

// The hostile-input harness, shard 2 of 4 (see contract-attack.ts).
attackShard(1);
