import './instrument';
import 'reflect-metadata';
import { runServiceMain } from '@swap/service-kit';
import { relayTracker } from './relay-tracker.definition';

void runServiceMain(relayTracker);
