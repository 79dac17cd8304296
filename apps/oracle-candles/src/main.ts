import './instrument';
import 'reflect-metadata';
import { runServiceMain } from '@swap/service-kit';
import { oracleCandles } from './oracle-candles.definition';

void runServiceMain(oracleCandles);
