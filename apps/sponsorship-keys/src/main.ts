import './instrument';
import 'reflect-metadata';
import { runServiceMain } from '@swap/service-kit';
import { sponsorshipKeys } from './sponsorship-keys.definition';

void runServiceMain(sponsorshipKeys);
