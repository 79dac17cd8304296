import './instrument';
import 'reflect-metadata';
import { runServiceMain } from '@swap/service-kit';
import { keyRegistry } from './key-registry.definition';

void runServiceMain(keyRegistry);
