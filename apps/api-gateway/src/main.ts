import './instrument';
import 'reflect-metadata';
import { runServiceMain } from '@swap/service-kit';
import { apiGateway } from './api-gateway.definition';

void runServiceMain(apiGateway);
