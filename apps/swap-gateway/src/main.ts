import './instrument';
import 'reflect-metadata';
import { runServiceMain } from '@swap/service-kit';
import { swapGateway } from './swap-gateway.definition';

void runServiceMain(swapGateway);
